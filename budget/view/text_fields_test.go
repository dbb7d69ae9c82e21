package view

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Captured for this package (text_fields.go), on this machine:
//
//   - testdata/apache-access-combined-d.log: Apache 2.4 (Debian 12's
//     apache2) on 127.0.0.1:18280 with LogFormat combined plus %D
//     (microseconds), static files of /usr/share/doc, /api/ proxied to a
//     python3 -m http.server (killed at request 480: 503), /old/ to a
//     closed port (503), POSTs to it (501), HEADs, a referer, a scanner's
//     /.env (404): 600 curl requests of a seeded loop; the whole
//     access.log.
//   - testdata/slog-text-walk.log: a 90-line Go program that walks
//     /usr/share/doc and logs per package directory with log/slog's
//     TextHandler (logfmt): files, links, bytes, lines of its .gz files,
//     WARN for a directory of no files, DEBUG for a large changelog.

// fieldSamples are lines that test the token rules' corners.
var fieldSamples = []string{
	`10.0.0.2 - - [27/Nov/2026:01:41:49 +0000] "GET /healthz HTTP/1.1" 200 3 "-" "kube-probe/1.29" rt=0.000 uct=- urt=- us=-`,
	`1.2.3.4 - - [x] "GET /a HTTP/1.1" 502 157 "-" "ua" rt=0.047 uct=0.000, 0.000, - urt=0.046, 0.000, 0.001 us=502, 502, 502`,
	`time=2026-11-27T04:42:34.039Z level=INFO msg="walk \"start\"" root=/usr/share/doc entries=1084`,
	`a="unclosed b=2 "x\"y" [open z=[1] k=v"w" "q"tail [a [b] c]`,
	`path="C:\\dir\\" next=1 "ends with backslash\\" "\`,
	`  lead  and	tab=1  trailing  `,
	`k=, a, b=1 c, "d" e,`,
	`héllo="wörld ü" [ünï] plain,  next, x`,
	``,
}

// TestFieldTokensPattern checks scanFieldTokens (and the merge after a
// ',', and unwrapField) against the regular expressions and the jq the
// view's queries use, on corner cases and on random lines of the
// characters that matter.
func TestFieldTokensPattern(t *testing.T) {
	re := regexp.MustCompile(fieldTokenPattern)
	wrap := regexp.MustCompile(fieldWrapPattern)
	pair := regexp.MustCompile(fieldPairPattern)
	lines := slices.Clone(fieldSamples)
	lines = append(lines, randomLines(16, 3000, 24,
		[]string{"a", "b", "k", "=", `"`, `\`, "[", "]", " ", " ", "\t", ",", "_", "1", "ü"})...)
	for _, l := range lines {
		var got []string
		for _, tk := range scanFieldTokens(l, nil) {
			got = append(got, tk.s)
			if (tk.val >= 0) != pair.MatchString(tk.s) {
				t.Errorf("%q: token %q pair %v, pattern says %v", l, tk.s, tk.val >= 0, !(tk.val >= 0))
			}
			if w := unwrapField(tk.s); (w != tk.s) != wrap.MatchString(tk.s) {
				t.Errorf("%q: token %q unwrapped to %q, the pattern says %v", l, tk.s, w, wrap.MatchString(tk.s))
			}
		}
		if want := re.FindAllString(l, -1); !slices.Equal(got, want) {
			t.Errorf("%q: tokens %q, the pattern %q", l, got, want)
		}
	}
	// The merge after a ',' and the whole cells, against jq.
	for _, l := range lines[:len(fieldSamples)+300] {
		var got []any
		for _, tk := range mergeCommaTokens(scanFieldTokens(l, nil)) {
			got = append(got, tk.s)
		}
		want := runJQ(t, l, fmt.Sprintf(`[scan(%s)] | %s`, jqString(fieldTokenPattern), jqMergeCommas))[0].([]any)
		if got == nil {
			got = []any{}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q: merged %q, jq %q", l, got, want)
		}
	}
}

// TestFieldCellsAgainstJQ checks, line by line, that the cells of a text
// of field lines are what the view's jq yields (nil: no output), on the
// captures and on lines of other shapes mixed in.
func TestFieldCellsAgainstJQ(t *testing.T) {
	for _, name := range []string{"testdata/apache-access-combined-d.log", "testdata/slog-text-walk.log"} {
		data := readCapture(t, name)
		sp := detectColumns(data, detectTextKind(data))
		if sp == nil || sp.mode != byFields {
			t.Fatalf("%s: not field lines: %+v", name, sp)
		}
		var lines []string
		textLines(data, func(_ int, l string) { lines = append(lines, l) })
		lines = append(lines[:200], fieldSamples...)
		lines = append(lines, `x y z`, `k=1 k=2 k="3 4"`, strings.Repeat("w ", sp.fs.pos)+`k=v`, strings.Repeat("w ", sp.fs.pos)+`"GET / HTTP/1.1 extra" k=v`)
		for _, l := range lines {
			got := sp.fields(l)
			var absent []bool
			for i := range got {
				absent = append(absent, sp.absentAt(i))
			}
			out := runJQ(t, l, sp.jqFields())
			switch {
			case got == nil && len(out) == 0:
				continue
			case got == nil || len(out) != 1:
				t.Errorf("%s: %q: cells %q, jq %v", name, l, got, out)
				continue
			}
			cells := out[0].([]any)
			if len(cells) != len(got) {
				t.Errorf("%s: %q: %d cells, jq %d", name, l, len(got), len(cells))
				continue
			}
			for i, c := range cells {
				if c == nil != absent[i] || c != nil && c.(string) != got[i] {
					t.Errorf("%s: %q: cell %d %q (absent %v), jq %v", name, l, i, got[i], absent[i], c)
				}
			}
		}
	}
}

// TestFieldLinesDetect checks what is read as field lines: the captures
// of access logs and logfmt with their columns' names; none of the
// bundled texts of other kinds (tables split at spaces, strace, dpkg's
// log, build logs) is.
func TestFieldLinesDetect(t *testing.T) {
	for name, want := range map[string]string{
		"testdata/apache-access-combined-d.log": "ip,field 2,field 3,time,method,path,protocol,field 6,field 7,field 8,field 9,field 10",
		"testdata/slog-text-walk.log":           "time,level,msg,root,entries,pkg,files,links,bytes,gz_lines,dur,path,lines,dirs,failed",
	} {
		data := readCapture(t, name)
		sp := detectColumns(data, detectTextKind(data))
		if sp == nil || sp.mode != byFields {
			t.Errorf("%s: not field lines", name)
			continue
		}
		if got := strings.Join(sp.header, ","); got != want {
			t.Errorf("%s: columns %s, want %s", name, got, want)
		}
	}
	files, _ := filepath.Glob("../../testdata/captured/*.txt")
	if len(files) < 20 {
		t.Fatalf("%d captured texts", len(files))
	}
	var fields []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if sp := detectColumns(data, detectTextKind(data)); sp != nil && sp.mode == byFields {
			fields = append(fields, filepath.Base(f))
		}
	}
	if len(fields) > 0 {
		t.Errorf("captured texts read as field lines: %v", fields)
	}
}

// TestFieldWordsDespiteOddLines checks that a few request lines of
// another word count (a scanner's "GARBAGE", TLS bytes) among the first
// 4,000 lines do not turn the request's split off: they are other lines,
// as after line 4,000 (rev16 R2).
func TestFieldWordsDespiteOddLines(t *testing.T) {
	var lines []string
	textLines(readCapture(t, "testdata/apache-access-combined-d.log"), func(_ int, l string) { lines = append(lines, l) })
	odd := []string{
		`127.0.0.1 - - [27/Nov/2026:04:39:09 +0000] "GARBAGE" 400 226 "-" "-" 120`,
		`127.0.0.1 - - [27/Nov/2026:04:39:09 +0000] "\x16\x03\x01\x02\x00\x01" 400 226 "-" "-" 98`,
		`127.0.0.1 - - [27/Nov/2026:04:39:09 +0000] "GET /a b c HTTP/1.1" 400 226 "-" "-" 101`,
	}
	lines = append(lines[:50], append(odd, lines[50:]...)...)
	data := []byte(strings.Join(lines, "\n") + "\n")
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byFields {
		t.Fatal("not field lines")
	}
	if got := strings.Join(cp.split.header[4:7], ","); got != "method,path,protocol" {
		t.Errorf("request columns %s", got)
	}
	if cp.rows != len(lines)-3 || cp.other != 3 {
		t.Errorf("%d rows, %d other lines; want %d, 3", cp.rows, cp.other, len(lines)-3)
	}
}

// TestFieldKeysWithNoColumn checks that keys first seen after the
// sample, which have no column, are counted and stated (rev16 R1).
func TestFieldKeysWithNoColumn(t *testing.T) {
	var lines []string
	textLines(readCapture(t, "testdata/slog-text-walk.log"), func(_ int, l string) { lines = append(lines, l) })
	var all []string
	for len(all) < 4500 {
		all = append(all, lines...)
	}
	n := 0
	for i := 4100; i < len(all); i += 100 {
		all[i] += ` err="open: permission denied" attempt=2`
		n++
	}
	data := []byte(strings.Join(all, "\n") + "\n")
	p := analyzeText(data, nil)
	cp := p.cols
	if cp == nil || cp.split.mode != byFields {
		t.Fatal("not field lines")
	}
	if cp.otherKeyRows != n || cp.otherKeys["err"] != n || cp.otherKeys["attempt"] != n {
		t.Errorf("keys with no column: %d rows, %v; want %d each", cp.otherKeyRows, cp.otherKeys, n)
	}
	fl, err := buildText(t, data, 4000).Fill(byteCounter{}, 4000)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fl.Text, "2 more keys have no column, in "+commas(n)+" rows") {
		t.Errorf("the head does not state the keys with no column:\n%s", fl.Text)
	}
}
