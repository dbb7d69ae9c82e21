package view

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestKVDetect checks which texts are key/value lines, of which spelling,
// and that logs of key=value pairs, records of fields and the other
// captured texts are not.
func TestKVDetect(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile("testdata/kv/" + name)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for name, want := range map[string]kvForm{
		"go-env.txt":                kvEq,
		"node-config-variables.txt": kvEq,
		"git-config-l.txt":          kvEq,
		"proc-meminfo.txt":          kvColon,
	} {
		data := read(name)
		if got := detectKV(data, detectTextKind(data)); got != want {
			t.Errorf("%s: form %d, want %d", name, got, want)
		}
	}
	if got := detectKV(readCapture(t, "gcc-dM.txt"), textPlain); got != kvDefine {
		t.Errorf("gcc -dM: form %d, want #define", got)
	}
	for name := range textCaptures {
		data := readCapture(t, name)
		if f := detectKV(data, detectTextKind(data)); f != kvNone {
			t.Errorf("%s: read as key/value lines (%d)", name, f)
		}
	}
	var logfmt, status, prose, sysctl, apt, sysconfig, ini strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&logfmt, "time=2026-11-25T10:%02d:00Z level=info msg=\"request\" status=%d\n", i, 200+i%3)
		fmt.Fprintf(&status, "status=%d\n", i%4)
		fmt.Fprintf(&prose, "Note: line %d of a text that says something: it goes on.\nAnd then more words follow here.\n", i)
		fmt.Fprintf(&sysctl, "net.ipv4.conf.eth%d.forwarding = %d\n", i, i%2)
		fmt.Fprintf(&apt, "Dir::Cache::item%d \"/var/cache/%d\";\n", i, i)
		fmt.Fprintf(&sysconfig, "\tHAVE_FEATURE_%d = \"%d\"\n", i, i%2)
		if i%5 == 0 {
			fmt.Fprintf(&ini, "[section%d]\n", i)
		}
		fmt.Fprintf(&ini, "\tkey%d = %d\n", i, i%3)
	}
	for _, c := range []struct {
		name string
		text string
		want kvForm
	}{
		{"logfmt log", logfmt.String(), kvNone},
		{"one key repeated", status.String(), kvNone},
		{"prose", prose.String(), kvNone},
		{"sysctl -a", sysctl.String(), kvSpaced},
		{"apt-config dump", apt.String(), kvQuoted},
		{"python -m sysconfig", "Platform: \"linux\"\n\nVariables: \n" + sysconfig.String(), kvSpaced},
		{"too few", "a=1\nb=2\nc=3\n", kvNone},
		{"an ini file", ini.String(), kvSpaced},
	} {
		data := []byte(c.text)
		if got := detectKV(data, detectTextKind(data)); got != c.want {
			t.Errorf("%s: form %d, want %d", c.name, got, c.want)
		}
	}
	data := []byte(logfmt.String())
	if k := analyzeText(data, nil).kind; k != textLog {
		t.Errorf("logfmt log: kind %q, want %q", k, textLog)
	}
}

// TestKVSplit checks the name and the value of each spelling.
func TestKVSplit(t *testing.T) {
	for _, c := range []struct {
		f         kvForm
		line      string
		key, val  string
		ok        bool
		reasonBad string
	}{
		{kvEq, "CC='gcc'", "CC", "'gcc'", true, ""},
		{kvEq, "Author='';", "Author", "''", true, ""},
		{kvEq, "remote.origin.url=https://example.org/x.git", "remote.origin.url", "https://example.org/x.git", true, ""},
		{kvEq, "PATH=/usr/bin:/bin", "PATH", "/usr/bin:/bin", true, ""},
		{kvEq, "1abc=2", "", "", false, "a name starts with a letter or _"},
		{kvEq, `declare -x HOME="/root"`, "HOME", `"/root"`, true, ""},
		{kvEq, "export GOPATH=/go", "GOPATH", "/go", true, ""},
		{kvEq, "a b=c", "", "", false, "no space in a name"},
		{kvSpaced, "vm.swappiness = 60", "vm.swappiness", "60", true, ""},
		{kvSpaced, "kernel.panic_sys_info = ", "kernel.panic_sys_info", "", true, ""},
		{kvSpaced, "\tABIFLAGS = \"\"", "ABIFLAGS", `""`, true, ""},
		{kvSpaced, "; audit = true ; overridden by user", "", "", false, "a comment"},
		{kvQuoted, `APT::Architecture "amd64";`, "APT::Architecture", `"amd64"`, true, ""},
		{kvQuoted, `APT::Architecture "amd64"`, "", "", false, "no final ;"},
		{kvColon, "MemTotal:       24684092 kB", "MemTotal", "24684092 kB", true, ""},
		{kvColon, "model name\t: Some CPU", "model name", "Some CPU", true, ""},
		{kvColon, "http://example.org", "", "", false, "a URL"},
		{kvColon, "line 12: some log text", "", "", false, "numbered lines"},
		{kvDefine, "#define __GNUC__ 12", "__GNUC__", "12", true, ""},
		{kvDefine, "#define __INT8_C(c) c", "__INT8_C(c)", "c", true, ""},
		{kvDefine, "#define __unix", "__unix", "", true, ""},
	} {
		k, v, ok := c.f.split(c.line)
		if ok != c.ok || k != c.key || v != c.val {
			t.Errorf("%q: (%q, %q, %v), want (%q, %q, %v) %s", c.line, k, v, ok, c.key, c.val, c.ok, c.reasonBad)
		}
	}
}

// TestFieldPairs checks that the Key: value pairs of stat's lines, several
// to a line, are profiled one by one, with counts, sums and extremes
// computed independently per key.
func TestFieldPairs(t *testing.T) {
	data, err := os.ReadFile("testdata/kv/stat-usr-share-doc.txt")
	if err != nil {
		t.Fatal(err)
	}
	p := analyzeText(data, nil)
	fields := map[string]*fieldStat{}
	for _, f := range p.fields {
		fields[f.name] = f
	}
	for key, re := range map[string]*regexp.Regexp{
		"File":     regexp.MustCompile(`^  File: (.*)$`),
		"Size":     regexp.MustCompile(`^  Size: (\d+) `),
		"Blocks":   regexp.MustCompile(`\tBlocks: (\d+) `),
		"IO Block": regexp.MustCompile(`  IO Block: (.*)$`),
		"Device":   regexp.MustCompile(`^Device: ([^\t]+)\t`),
		"Inode":    regexp.MustCompile(`\tInode: (\d+) `),
		"Links":    regexp.MustCompile(`  Links: (\d+)$`),
		"Uid":      regexp.MustCompile(`  Uid: (\(.*?\))   Gid`),
		"Gid":      regexp.MustCompile(`  Gid: (\(.*?\))$`),
		"Birth":    regexp.MustCompile(`^ Birth: (.*)$`),
	} {
		var vals []string
		textLines(data, func(_ int, l string) {
			if m := re.FindStringSubmatch(l); m != nil {
				vals = append(vals, strings.TrimSpace(m[1]))
			}
		})
		f := fields[key]
		if f == nil {
			t.Errorf("key %q not profiled", key)
			continue
		}
		if f.present != len(vals) || len(vals) == 0 {
			t.Errorf("%s: %d lines, want %d", key, f.present, len(vals))
		}
		counts := map[string]int{}
		sum, lo, hi := int64(0), int64(1<<62), int64(-1)
		for _, v := range vals {
			counts[v]++
			if x, err := strconv.ParseInt(v, 10, 64); err == nil {
				sum += x
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		if f.values != nil && len(f.values) != len(counts) {
			t.Errorf("%s: %d distinct values, want %d", key, len(f.values), len(counts))
		}
		for v, n := range f.values {
			if counts[v] != n {
				t.Errorf("%s %q: %d, want %d", key, v, n, counts[v])
			}
		}
		if f.numeric == f.present && (f.sum != sum || f.min != lo || f.max != hi) {
			t.Errorf("%s: sum %d min %d max %d, want %d %d %d", key, f.sum, f.min, f.max, sum, lo, hi)
		}
	}
	for _, c := range []struct {
		line string
		want []fieldPair
	}{
		{"Device: 254,0\tInode: 681  Links: 2", []fieldPair{{"Device", "254,0"}, {"Inode", "681"}, {"Links", "2"}}},
		{"  Size: 9431 \tBlocks: 24  IO Block: 4096  regular file", []fieldPair{{"Size", "9431"}, {"Blocks", "24"}, {"IO Block", "4096  regular file"}}},
		{"Access: (0644/-rw-r--r--)  Uid: (    0/    root)   Gid: (    0/    root)", []fieldPair{{"Access", "(0644/-rw-r--r--)"}, {"Uid", "(    0/    root)"}, {"Gid", "(    0/    root)"}}},
		{"    feat: a message line of git log", nil},
		{"Note: two  words here", []fieldPair{{"Note", "two  words here"}}},
	} {
		got := fieldPairs(c.line, true)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
		}
	}
}

// TestFieldRareNames checks the names a records-of-fields profile gives
// for a rare value and for a field few records have against the records
// read independently (paragraphs split at blank lines, named by their
// Package field).
func TestFieldRareNames(t *testing.T) {
	for _, name := range []string{"dpkg-status.txt", "apt-cache-show.txt", "apt-cache-show-node.txt"} {
		data := readCapture(t, name)
		p := analyzeText(data, nil)
		if p.kind != textFields {
			t.Fatalf("%s: kind %q", name, p.kind)
		}
		// field -> value -> record names, and field -> record names
		byValue := map[string]map[string][]string{}
		holders := map[string][]string{}
		for _, para := range strings.Split(string(data), "\n\n") {
			rec := ""
			for _, l := range strings.Split(para, "\n") {
				m := regexp.MustCompile(`^([A-Za-z][A-Za-z0-9_-]*):(?:[ \t]+(.*))?$`).FindStringSubmatch(l)
				if m == nil {
					continue
				}
				if rec == "" {
					rec = strings.TrimSpace(m[2])
				}
				if byValue[m[1]] == nil {
					byValue[m[1]] = map[string][]string{}
				}
				v := strings.TrimSpace(m[2])
				byValue[m[1]][v] = append(byValue[m[1]][v], rec)
				holders[m[1]] = append(holders[m[1]], rec)
			}
		}
		listed := 0
		for _, f := range p.fields {
			for v, n := range f.values {
				if s := f.names.rareText(v, n, f.present); s != "" {
					listed++
					if want := " (" + strings.Join(byValue[f.name][v], ", ") + ")"; s != want {
						t.Errorf("%s: %s %q: %s, want %s", name, f.name, v, s, want)
					}
				}
			}
			if s := f.names.holdersText(f.present, p.records); s != "" {
				listed++
				if want := ": " + strings.Join(holders[f.name], ", "); s != want {
					t.Errorf("%s: %s: %s, want %s", name, f.name, s, want)
				}
			}
		}
		if listed == 0 {
			t.Errorf("%s: no rare value or field named its records", name)
		}
	}
	// The bundled question "which package has priority important".
	text := fillText(t, readCapture(t, "apt-cache-show.txt"), 4000)
	want := runJQ(t, jqLines(t, readCapture(t, "apt-cache-show.txt"), `. as $l | [range(length) | select($l[.] == "Priority: important")] | first as $i | [$l[:$i][] | select(startswith("Package: "))] | last | ltrimstr("Package: ")`)[0], ".")[0].(string)
	if !strings.Contains(text, `"important" 1 (`+want+`)`) {
		t.Errorf("apt-cache show at 4,000 tokens does not name %s, the package of priority important", want)
	}
}

// FuzzKVLines checks, on texts read as key/value lines, that the counts
// add up and that the view builds and fills a small budget without
// losing the count of its entries.
func FuzzKVLines(f *testing.F) {
	for _, s := range []string{
		"a='1'\nb='undef'\nc_d='undef'\nc_e=''\nE='define'\nF='define'\nG=''\nH=x\nI=\n",
		"net.a = 1\nnet.b = 0\nvm.c = 0\nvm.d =\nfs.e = 1 2\tx\nk = v\nl = w\nm = 0\n",
		"APT \"\";\nAPT::A \"1\";\nAPT::B \"\";\nDir \"/\";\nDir::C \"x\";\nDir::D \"y\";\nE::F \"0\";\nE::G \"0\";\n",
		"#define A 1\n#define B(x) x\n#define C\n#define D 1\n#define E_F 2\n#define E_G 2\n#define H 3\n#define I 1\n",
		"MemTotal:  1 kB\nMemFree:   2 kB\nBuffers:  0 kB\nCached: 0 kB\nSwap Total: 0 kB\nA: 1\nB: 2\nC:\n",
		"[core]\n\tbare = false\n\tx = 1\n\ty = 2\n\tz = 2\n\tw = 3\n[user]\n\tname = A\n\temail = a@b\n\tq = 2\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			return
		}
		p := analyzeText(data, nil)
		kv := p.kv
		if kv == nil {
			return
		}
		if kv.entries+kv.other != p.lines-p.blank || p.records != kv.entries {
			t.Fatalf("%d entries + %d other lines of %d non-blank lines; %d records", kv.entries, kv.other, p.lines-p.blank, p.records)
		}
		for _, g := range append(append([]kvGroup(nil), kv.groups...), kv.deep...) {
			if g.n < 2 || g.n > kv.entries {
				t.Fatalf("group %q: %d entries of %d", g.part, g.n, kv.entries)
			}
		}
		v := buildText(t, data, 300)
		fl, err := v.Fill(byteCounter{}, 2000)
		if err != nil {
			return
		}
		if !strings.Contains(fl.Text, fmt.Sprintf("key/value lines: %s entries", commas(kv.entries))) {
			t.Fatalf("the view does not count the entries:\n%s", fl.Text)
		}
	})
}

// TestMetricOneSampleExtremes checks that a text of one-sample families
// (/proc/vmstat, captured on the review machine of session 13) states
// its largest values with their names and its smallest with how many
// families hold it, as jq finds them: 8aba075 read it as metrics and no
// longer said which counter is largest (second read M3; 12d6d2d's table
// had "max 409263740" and the pgfault row).
func TestMetricOneSampleExtremes(t *testing.T) {
	data, err := os.ReadFile("testdata/kv/proc-vmstat.txt")
	if err != nil {
		t.Fatal(err)
	}
	top := jqLines(t, data, `[.[] | split(" ") | {k: .[0], v: (.[1] | tonumber)}] | sort_by(-.v) | .[:3][] | "\(.k) \(.v)"`)
	low := jqLines(t, data, `[.[] | split(" ") | (.[1] | tonumber)] | min as $m | "smallest \($m) in \([.[] | select(. == $m)] | length) families"`)
	text := fillText(t, data, 2000)
	want := []string{"largest " + top[0].(string) + ", " + top[1].(string) + ", " + top[2].(string), low[0].(string)}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the view at 2,000 tokens lacks %q:\n%s", w, text)
		}
	}
}
