package view

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestColumnOfMeasuresInWordsNotListed: a text column of up to 24
// values lists every value only when the values of one row are
// categories (a man page section of one page), not numbers written in a
// word. redis-benchmark (testdata/redis-benchmark-14.txt, a real run of
// 14 tests against a local redis-server 7.0.15 from Debian) has one
// progress line per test whose words fall in the latency rows' columns:
// "rps=10043.8", "12138.3)", "avg_msec=2.107". On the old code columns
// 2, 4 and 5 listed those 15 one-row values each and the head of the
// output (the first test's clients and payload) was left out at 2,000.
func TestColumnOfMeasuresInWordsNotListed(t *testing.T) {
	data, err := os.ReadFile("testdata/redis-benchmark-14.txt")
	if err != nil {
		t.Fatal(err)
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		`column 2: 16 distinct values; most frequent: "<=" 777; 15 other values in 15 rows`,
		`column 4: 16 distinct values; most frequent: "milliseconds" 777; 15 other values in 15 rows`,
		`column 5: 16 distinct values; most frequent: "(cumulative" 777; 15 other values in 15 rows`,
		"50 parallel clients",
		"3 bytes payload",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestNumberForm: the values a column lists one by one only when none
// of its one-row values is a number form.
func TestNumberForm(t *testing.T) {
	for v, want := range map[string]bool{
		"rps=10043.8": true, "12138.3)": true, "(10": true, "0.5": true,
		"(2type)": false, "(5ssl)": false, "int64": false, "spf13": false,
		"(needed": false, "avg_msec=-nan": false, "v2": false,
	} {
		if got := numberForm(v); got != want {
			t.Errorf("numberForm(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestLabelPrefixShowsColumns: a constant prefix of words and a colon
// (python -X importtime writes "import time: " before every line) is a
// line prefix like valgrind's "==11139== ": the text is read without it,
// so the first column is the numbers it holds and the first line the
// header. On the old code column 1 was "import time:        53", 179
// distinct strings with no sum, and the header a row.
func TestLabelPrefixShowsColumns(t *testing.T) {
	data, err := os.ReadFile("testdata/python-importtime.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := linePrefix(data); got != "import time: " {
		t.Fatalf("prefix %q", got)
	}
	// The sums and extremes, read here from the lines.
	self, cum, maxSelf, maxCum := 0, 0, 0, 0
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if i == 0 {
			continue
		}
		f := strings.Split(strings.TrimPrefix(l, "import time:"), "|")
		a, _ := strconv.Atoi(strings.TrimSpace(f[0]))
		b, _ := strconv.Atoi(strings.TrimSpace(f[1]))
		self, cum, maxSelf, maxCum = self+a, cum+b, max(maxSelf, a), max(maxCum, b)
	}
	got := fillText(t, data, 2000)
	for _, want := range []string{
		`every line starts with "import time: "`,
		"a table of 190 rows, 3 columns",
		fmt.Sprintf("self [us]: numbers, sum %d, min 49, max %d,", self, maxSelf),
		fmt.Sprintf("cumulative: numbers, sum %d, min 49, max %d,", cum, maxCum),
		"40147 | 46833 | socket\t[largest self [us] (40147)]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
	for _, s := range []string{"error: x\n", "note: y\n", "warning: z\n", "src/a.go: x\n"} {
		if got := linePrefix([]byte(strings.Repeat(s, 25))); got != "" {
			t.Errorf("prefix %q of %q: want none (a level, a path)", got, s)
		}
	}
}

// TestTableTemplatesOfTwoLinesNoFacts: of a table, the templates of two
// lines are two rows sharing a cell (getent services: "daytime <*>" of
// 13/tcp and 13/udp); they are not listed, so the facts a whole output
// carries are the table's (on the old code 44 such templates and their
// values were 72 of its 85 facts, and the output, 3,091 tokens, was
// shown whole only from about 5,000 tokens: a view at 4,000).
func TestTableTemplatesOfTwoLinesNoFacts(t *testing.T) {
	data, err := os.ReadFile("testdata/getent-services.txt")
	if err != nil {
		t.Fatal(err)
	}
	facts := buildText(t, data, 2000).Facts()
	all := strings.Join(facts, "\n")
	if strings.Contains(all, "[2 lines]") || strings.Contains(all, "(2 values): 13/tcp, 13/udp") {
		t.Errorf("the facts list templates of two lines:\n%s", all)
	}
	if len(all)*5 > len(data) {
		t.Errorf("the facts are %d bytes for a text of %d:\n%s", len(all), len(data), all)
	}
	for _, want := range []string{`column 2, rows by the value's form (each number written #): "#/tcp" 218, "#/udp" 95, "#/ddp" 4, "#/sctp" 1`} {
		if !strings.Contains(all, want) {
			t.Errorf("the facts lack %q:\n%s", want, all)
		}
	}
}

// TestColumnByFirstWord: a column of many distinct values of several
// words, most starting with one of a few words (objdump -d's mnemonic
// and operands, testdata/objdump-d-getent.txt: the first 800 lines of
// objdump -d /usr/bin/getent), is counted by that word, exactly: how
// many calls, jumps and moves. On the old code the column was only its
// distinct values and shared starts ("mov…" also counting movl, movzbl).
func TestColumnByFirstWord(t *testing.T) {
	data, err := os.ReadFile("testdata/objdump-d-getent.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Count the mnemonics here: the third tab-separated cell's first word.
	counts := map[string]int{}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, "\t")
		if len(f) == 3 && strings.HasSuffix(f[0], ":") {
			w := strings.Fields(f[2])
			counts[w[0]]++
		}
	}
	got := fillText(t, data, 4000)
	var want []string
	for _, w := range []string{"mov", "call", "jmp", "push"} {
		want = append(want, fmt.Sprintf("%s %d", w, counts[w]))
	}
	i := strings.Index(got, "column 3 by its first word (exact counts of rows): ")
	if i < 0 {
		t.Fatalf("no census of column 3 by its first word:\n%s", got)
	}
	line := got[i:]
	line = line[:strings.IndexByte(line, '\n')]
	for _, w := range want {
		if !strings.Contains(line, w+",") {
			t.Errorf("the census lacks %q: %s", w, line)
		}
	}
}

// parseNameLine reads a line of the listing by names back into the
// entries it states (name -> value as written), the way a reader of the
// view would: "P.: a=1 b=\"x y\"" and "P.{m,n}.: s=0 (n=1, only m,n)".
func parseNameLine(t *testing.T, line, sep string) map[string]string {
	t.Helper()
	line = strings.TrimPrefix(line, "  ")
	head, rest, ok := strings.Cut(line, ": ")
	if !ok {
		t.Fatalf("no head in %q", line)
	}
	var members []string
	pre := head
	if i := strings.Index(head, "{"); i >= 0 {
		j := strings.Index(head, "}")
		members = strings.Split(head[i+1:j], ",")
		pre = head[:i]
	}
	value := func(s string) (string, string) {
		if strings.HasPrefix(s, `"`) {
			q, err := strconv.QuotedPrefix(s)
			if err != nil {
				t.Fatalf("bad quoted value in %q", s)
			}
			v, _ := strconv.Unquote(q)
			return v, s[len(q):]
		}
		end := strings.IndexAny(s, " ,)")
		if end < 0 {
			end = len(s)
		}
		return s[:end], s[end:]
	}
	out := map[string]string{}
	for rest != "" {
		rest = strings.TrimPrefix(rest, " ")
		end := strings.IndexAny(rest, "= ")
		if end <= 0 {
			t.Fatalf("no name at %q in %q", rest, line)
		}
		name := rest[:end]
		rest = rest[end:]
		var common string
		hasCommon := strings.HasPrefix(rest, "=")
		if hasCommon {
			common, rest = value(rest[1:])
		} else if members == nil {
			t.Fatalf("no value of %s in %q", name, line)
		}
		except := map[string]string{}
		var only []string
		if strings.HasPrefix(rest, " (") || strings.HasPrefix(rest, "(") {
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, " "), "(")
			for {
				if strings.HasPrefix(rest, "only ") {
					rest = rest[len("only "):]
					end := strings.IndexAny(rest, " )")
					only = strings.Split(strings.TrimSuffix(rest[:end], ","), ",")
					rest = rest[end:]
				} else {
					eq := strings.IndexByte(rest, '=')
					m := rest[:eq]
					var v string
					v, rest = value(rest[eq+1:])
					except[m] = v
				}
				if strings.HasPrefix(rest, ")") {
					rest = rest[1:]
					break
				}
				rest = strings.TrimPrefix(rest, ", ")
			}
		}
		if members == nil {
			out[pre+name] = common
			continue
		}
		in := members
		if only != nil {
			in = only
		} else if !hasCommon {
			in = nil
			for _, m := range members {
				if _, ok := except[m]; ok {
					in = append(in, m)
				}
			}
		}
		for _, m := range in {
			v, ok := except[m]
			if !ok {
				v = common
			}
			out[pre+m+sep+name] = v
		}
	}
	return out
}

// TestKVListedByName: a dump of settings (sysctl -a of this machine,
// testdata/sysctl-a.txt, with the lines naming the host and its boot
// left out) is listed by name: every entry in exactly one line, the
// settings of each network interface once with the value the
// interfaces share and the ones that differ, so that a lookup by name
// finds its value. Each line is read back and checked against the
// text's own lines. On the old code the view listed 52 of 1,299 entries
// at 8,000 tokens as "names by their value" and 16 as written; now
// most of them.
func TestKVListedByName(t *testing.T) {
	data, err := os.ReadFile("testdata/sysctl-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		k, v, _ := strings.Cut(l, " =")
		want[k] = strings.TrimSpace(v)
	}
	p := analyzeText(data, nil)
	s := p.kv
	if s == nil || !s.nameListing() {
		t.Fatalf("not listed by name: %+v", s)
	}
	lines := s.nameLines()
	seen := map[int]bool{}
	got := map[string]string{}
	for _, l := range lines {
		for _, pos := range l.pos {
			if seen[pos] {
				t.Errorf("line %d in two lines of the listing", pos)
			}
			seen[pos] = true
		}
		for k, v := range parseNameLine(t, l.text, s.sep) {
			got[k] = v
		}
	}
	if len(seen) != s.entries {
		t.Errorf("%d of %d entries listed", len(seen), s.entries)
	}
	for k, v := range want {
		g, ok := got[k]
		if !ok {
			t.Errorf("%s not read back from the listing", k)
			continue
		}
		if g != v && !(len(v) > 80 && strings.HasPrefix(g, v[:40])) {
			t.Errorf("%s = %q read back, the text has %q", k, g, v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d names read back, %d in the text", len(got), len(want))
	}
	fam := 0
	for _, l := range lines {
		if strings.Contains(l.text, ".{all,default,eth0,ifb0,ifb1,lo}.: ") {
			fam++
		}
	}
	if fam == 0 {
		t.Errorf("no line for the settings of every interface")
	}
	small, large := fillText(t, data, 2000), fillText(t, data, 8000)
	for _, want := range []string{"vm.: ", "net.ipv4.conf.{all,default,eth0,ifb0,ifb1,lo}.: "} {
		if !strings.Contains(large, want) {
			t.Errorf("the view at 8,000 lacks %q:\n%s", want, large)
		}
	}
	for _, l := range strings.Split(small, "\n") {
		if strings.Contains(l, ": ") && strings.Contains(l, "=") && strings.HasPrefix(l, "  ") && !strings.Contains(large, l) {
			t.Errorf("a line at 2,000 not at 8,000: %q", l)
		}
	}
}

// TestTableMostRowsLinks: a whitespace table whose last column holds
// spaces in most rows (dpkg-deb -c, tar -tv of a package of man pages,
// testdata/dpkg-deb-c-manpages-dev.txt: its first 200 entries and 400
// of its 1,371 links, "path -> target", 8 words against 6) is read at
// the narrowest width that a quarter of the lines have exactly and
// three in four at least, and the paths are counted by directory by the
// link's own path. On the old code it was no table: no sizes, no largest
// file, no directories.
func TestTableMostRowsLinks(t *testing.T) {
	data, err := os.ReadFile("testdata/dpkg-deb-c-manpages-dev.txt")
	if err != nil {
		t.Fatal(err)
	}
	sum, max, maxName, man2 := 0, 0, "", 0
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		f := strings.Fields(l)
		n, _ := strconv.Atoi(f[2])
		sum += n
		if n > max {
			max, maxName = n, f[5]
		}
		if strings.HasPrefix(f[5], "./usr/share/man/man2/") && len(f[5]) > len("./usr/share/man/man2/") {
			man2++
		}
	}
	p := analyzeText(data, nil)
	if p.cols == nil || p.cols.split.k != 6 || p.cols.rows != 600 {
		t.Fatalf("not a table of 600 rows, 6 columns: %+v", p.cols)
	}
	got := fillText(t, data, 4000)
	for _, want := range []string{
		fmt.Sprintf("column 3: numbers, sum %d, min 0", sum),
		fmt.Sprintf(", max %d,", max),
		maxName + "\t[largest column 3 (" + strconv.Itoa(max) + ")]",
		fmt.Sprintf(`"./usr/share/man/man2/" %d`, man2),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the view lacks %q:\n%s", want, got)
		}
	}
}

// TestKVListingNoFacts: the entries a key/value text lists by name
// (sysctl -a) are its own data, not facts computed over it: a whole
// output that fits need not restate them. On the old code every listing
// line was a fact ("entries by name" was missing from listings), so the
// facts of testdata/sysctl-a.txt were larger than the text itself and the
// output was shown whole only from ~24,900 tokens instead of ~19,300.
func TestKVListingNoFacts(t *testing.T) {
	data, err := os.ReadFile("testdata/sysctl-a.txt")
	if err != nil {
		t.Fatal(err)
	}
	facts := buildText(t, data, 2000).Facts()
	all := strings.Join(facts, "\n")
	if len(all)*4 > len(data) {
		t.Errorf("the facts are %d bytes for a text of %d: the listing is counted as facts", len(all), len(data))
	}
	for _, f := range facts {
		if strings.HasPrefix(strings.TrimSpace(f), "vm.: ") || strings.Contains(f, "swappiness=") {
			t.Errorf("a fact lists entries by name: %q", f)
		}
	}
}

// TestKVFileNamesPartedBySlash: file(1)'s "path: type" lines name files
// whose one dot starts an extension; the names are parted at "/", never
// at that dot (on the old code "." won when more names held a dot than a
// slash, and the listing wrote `budget/check.: go="ASCII text"`).
func TestKVFileNamesPartedBySlash(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "pkg/sub%d/file%d.go: ASCII text\n", i%4, i)
	}
	for i := range 50 {
		fmt.Fprintf(&b, "README%d.md: Unicode text, UTF-8 text\n", i)
	}
	p := analyzeText([]byte(b.String()), nil)
	if p.kv == nil {
		t.Fatal("not read as key/value lines")
	}
	if p.kv.sep != "/" {
		t.Errorf("names parted by %q, want \"/\"", p.kv.sep)
	}
	for _, c := range []struct {
		name string
		want bool
	}{{"budget/check.go", true}, {"README.md", true}, {"vm.swappiness", false}, {"net.ipv4.ip_forward", false}, {"a/b.tar.gz", false}, {"kernel.sem", true}} {
		if got := onlyExtension(c.name); got != c.want {
			t.Errorf("onlyExtension(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}

// TestKVShownQuotedOnce: a value written in quotes (apt-config dump's
// `APT::Architecture "amd64";`) is shown as written; on the old code it
// was quoted again (`Architecture="\"amd64\""`).
func TestKVShownQuotedOnce(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`"amd64"`, `"amd64"`}, {`""`, `""`}, {"amd64", "amd64"}, {"a b", `"a b"`},
		{`"a"b"`, `"\"a\"b\""`}, {"", `""`},
	} {
		if got := kvShown(c.in); got != c.want {
			t.Errorf("kvShown(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
