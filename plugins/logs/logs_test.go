package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/plugins/pdk"
	lt "github.com/toolcompact/compact/schemas/linetemplate"
)

func TestImportant(t *testing.T) {
	m := newLevelMatcher(nil, nil)
	for _, line := range []string{
		"ERROR: disk full", "[warn] slow", "level=error msg=x", `{"level":"WARN"}`, "E1122 01:02:03.000 foo",
		"W1122 x", "Traceback (most recent call last):", "ValueError: bad", "java.lang.NullPointerException: x",
		"build FAILED", "thread panicked at src/main.rs", "fatal: not a git repository", "Killed",
	} {
		if !m.important([]byte(line)) {
			t.Errorf("%q not important", line)
		}
	}
	for _, line := range []string{"GET /healthz 200", "terrific mirror", "stderr closed", "I1122 info", "informational"} {
		if m.important([]byte(line)) {
			t.Errorf("%q important", line)
		}
	}
	custom := newLevelMatcher([]string{"Deprecated"}, []string{"error"})
	if !custom.important([]byte("DEPRECATED api")) || custom.important([]byte("error 0")) || custom.important([]byte("IOError")) {
		t.Error("keep_words/ignore_words not applied")
	}
}

// check verifies the plugin's promises on one input and returns the
// output lines: every input line is accounted for exactly once, every
// important line appears verbatim and in order, every unmarked output line
// is an input line, and the output is no larger than the input.
func check(t *testing.T, name string, in []byte, cfg map[string]string) []string {
	t.Helper()
	o, err := parseOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out, n := compactLines(in, o)
	if again, _ := compactLines(in, o); !bytes.Equal(out, again) {
		t.Fatalf("%s: output is not deterministic", name)
	}
	var inLines []string
	for _, l := range splitLines(in) {
		inLines = append(inLines, string(in[l.start:l.end]))
	}
	if n != len(inLines) {
		t.Fatalf("%s: declared %d lines, input has %d", name, n, len(inLines))
	}
	var outLines []string
	if len(out) > 0 {
		if out[len(out)-1] != '\n' {
			t.Fatalf("%s: output does not end with a newline", name)
		}
		outLines = strings.Split(string(out[:len(out)-1]), "\n")
	}
	inSet := map[string]bool{}
	for _, l := range inLines {
		inSet[l] = true
	}
	total := 0
	var unmarked []string
	for _, l := range outLines {
		k, rest := pdk.ParseGroupMarker([]byte(l))
		total += k
		if k == 1 {
			if !inSet[string(rest)] {
				t.Fatalf("%s: output line %q stands for one line but is no input line", name, l)
			}
			unmarked = append(unmarked, string(rest))
		}
	}
	if total != len(inLines) {
		t.Fatalf("%s: output stands for %d lines, input has %d", name, total, len(inLines))
	}
	// Important lines appear verbatim, in their input order.
	j := 0
	for _, l := range inLines {
		if !o.levels.important([]byte(l)) {
			continue
		}
		for j < len(unmarked) && unmarked[j] != l {
			j++
		}
		if j == len(unmarked) {
			t.Fatalf("%s: important line %q missing or out of order", name, l)
		}
		j++
	}
	// The output only grows by the "[×1] " escapes of input lines that
	// look like markers, and by a final newline the input may lack.
	limit := len(in) + 1
	for _, l := range inLines {
		if strings.HasPrefix(l, "[×") {
			limit += len("[×1] ")
		}
	}
	if len(out) > limit {
		t.Fatalf("%s: output %d bytes > input %d", name, len(out), len(in))
	}
	return outLines
}

func TestCompactSynthetic(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 500; i++ {
		fmt.Fprintf(&b, "2026-11-20T03:%02d:%02d.%03dZ GET /healthz 200 in %dms\n", i/60%60, i%60, i, i%40)
		if i%100 == 50 {
			fmt.Fprintf(&b, "2026-11-20T03:%02d:%02d.000Z ERROR upstream timeout after %dms\n", i/60%60, i%60, 1000+i)
			b.WriteString("java.lang.IllegalStateException: pool exhausted\n\tat com.example.Pool.get(Pool.java:42)\n\tat com.example.Api.handle(Api.java:7)\n")
		}
		if i%250 == 0 {
			b.WriteString("cache warmed\n")
		}
	}
	b.WriteString("[×3] a line that looks like a marker\n")
	in := []byte(b.String())
	out := check(t, "synthetic", in, nil)
	want := []string{
		"[×500] <ts> GET /healthz <n> in <n>ms  (2026-11-20T03:00:00.000Z … 2026-11-20T03:08:19.499Z)",
		"[×2] cache warmed",
		"2026-11-20T03:00:50.000Z ERROR upstream timeout after 1050ms",
		"\tat com.example.Pool.get(Pool.java:42)",
		"[×1] [×3] a line that looks like a marker",
	}
	for _, w := range want {
		found := false
		for _, l := range out {
			found = found || l == w
		}
		if !found {
			t.Errorf("missing output line %q in:\n%s", w, strings.Join(out, "\n"))
		}
	}
	if len(out) != 1+1+5*4+1 {
		t.Errorf("%d output lines, want 23:\n%s", len(out), strings.Join(out, "\n"))
	}

	// With scope=segment the health checks are grouped between errors.
	seg := check(t, "synthetic/segment", in, map[string]string{"scope": "segment"})
	if seg[0] != "[×51] <ts> GET /healthz <n> in <n>ms  (2026-11-20T03:00:00.000Z … 2026-11-20T03:00:50.050Z)" {
		t.Errorf("segment scope: first line %q", seg[0])
	}
}

func TestSpanWithoutTimestamp(t *testing.T) {
	if got := string(appendSpan([]byte("<n> x"), []byte("1 x"), []byte("2 x"))); got != "<n> x" {
		t.Errorf("span without a timestamp: %q", got)
	}
}

func TestCompactEdgeCases(t *testing.T) {
	for name, in := range map[string]string{
		"empty":             "",
		"one line":          "only",
		"no final newline":  "a 1\na 2\na 3",
		"blank lines":       "\n\n\n\n",
		"crlf":              "x 1\r\nx 2\r\nx 3\r\n",
		"short group":       "a 1\na 2\n",
		"all important":     "error 1\nerror 2\nerror 3\n",
		"indent, no trace":  "  a 1\n  a 2\n  a 3\n",
		"marker lookalikes": "[×2] x\n[×2] x\n[×2] x\n[×9\n",
	} {
		check(t, name, []byte(in), nil)
	}
	if out, n := compactLines([]byte("a 1\na 2"), options{minCount: 2, global: true, levels: newLevelMatcher(nil, nil)}); n != 2 || string(out) != "a 1\na 2\n" {
		t.Errorf("a two-line group that does not shrink is kept verbatim: %q", out)
	}
}

func TestCompactCapturedLogs(t *testing.T) {
	files := []string{"testdata/apt-term.log"}
	for _, f := range []string{"dpkg-log.txt", "apt-history.txt", "app-log.jsonl"} {
		files = append(files, filepath.Join("..", "..", "testdata", "captured", f))
	}
	for _, f := range files {
		in, err := os.ReadFile(f)
		if os.IsNotExist(err) {
			t.Logf("%s not captured yet", f)
			continue
		} else if err != nil {
			t.Fatal(err)
		}
		for _, scope := range []string{"global", "segment"} {
			out := check(t, f+"/"+scope, in, map[string]string{"scope": scope})
			t.Logf("%s scope=%s: %d bytes -> %d output lines", f, scope, len(in), len(out))
		}
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, cfg := range []map[string]string{{"scope": "everywhere"}, {"min_count": "1"}, {"min_count": "x"}} {
		if _, err := parseOptions(cfg); err == nil || !strings.Contains(err.Error(), "logs: config") {
			t.Errorf("%v: err %v", cfg, err)
		}
	}
	_, _, err := compact(pdk.Header{Config: map[string]string{"scope": "x"}}, nil)
	if err == nil {
		t.Error("compact accepted a bad config")
	}
}

func TestCompactHeader(t *testing.T) {
	h, body, err := compact(pdk.Header{Config: map[string]string{}}, []byte("alpha 1\nalpha 2\nalpha 3\nerror!\n"))
	if err != nil {
		t.Fatal(err)
	}
	if h.ContentType != "text/plain" || len(h.Collections) != 1 || h.Collections[0] != (pdk.Collection{Path: ".", Count: 4}) {
		t.Errorf("header %+v", h)
	}
	if string(body) != "[×3] alpha <n>\nerror!\n" {
		t.Errorf("body %q", body)
	}
}

func FuzzCompactLines(f *testing.F) {
	for _, s := range []string{"a 1\na 2\nerror x\n\tat y\na 3\n", "[×2] x\n[×2] x", "\n\n", "x 0x1f 10.0.0.1:80 2026-01-02T03:04:05Z\n"} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, in []byte, segment bool) {
		if len(in) > 4096 {
			return
		}
		cfg := map[string]string{}
		if segment {
			cfg["scope"] = "segment"
		}
		check(t, "fuzz", in, cfg)
	})
}

func BenchmarkCompactLines(b *testing.B) {
	in, err := os.ReadFile("../../testdata/captured/app-log.jsonl")
	if err != nil {
		b.Skip(err)
	}
	o, _ := parseOptions(nil)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		compactLines(in, o)
	}
}

func TestDeclinesJSONDocuments(t *testing.T) {
	for in, msg := range map[string]string{
		`[{"a":1},{"a":2}]`:                          "one JSON document",
		"{\n  \"a\": 1\n}\n":                         "one JSON document",
		"{\"a\":1}\n\n{\"a\":2}\n":                   "line 2 does not hold one object",
		"{\"a\":1}\n{\n\"b\":2}\n":                   "line 2 does not hold one object",
		"{\"a\":1}\n{\"a\":2}\n[1]\n":                "line 3",
		"  {\"Path\": \"x\",\n\"V\": 1}":             "one JSON document",
		"{\"Path\": \"x\"}\n{\n\"V\": 1}\n{\"W\":2}": "line 2",
		"{\"a\":1}\n":                                "one JSON document",
		// One document on one line without a newline (npm's cache of a
		// registry document): its collections are the host's, not lines.
		`{"name":"debug","versions":{"1.0.0":{"version":"1.0.0"}}}`: "one JSON document",
	} {
		if _, _, err := compact(pdk.Header{Config: map[string]string{}}, []byte(in)); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: err %v, want %q", in, err, msg)
		}
	}
	for _, in := range []string{"{\"a\":1}\n{\"a\":2}\n", "{\"a\":1}\r\n{\"a\":2}", "plain text\n{not json}\n", "", "[INFO] started\n", "[1] [2]\n"} {
		if _, _, err := compact(pdk.Header{Config: map[string]string{}}, []byte(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
}

func BenchmarkImportant(b *testing.B) {
	in, err := os.ReadFile("../../testdata/captured/app-log.jsonl")
	if err != nil {
		b.Skip(err)
	}
	m := newLevelMatcher(nil, nil)
	lines := splitLines(in)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for _, l := range lines {
			m.important(in[l.start:l.end])
		}
	}
}

func BenchmarkTemplate(b *testing.B) {
	in, err := os.ReadFile("../../testdata/captured/app-log.jsonl")
	if err != nil {
		b.Skip(err)
	}
	lines := splitLines(in)
	var buf []byte
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		for _, l := range lines {
			buf = lt.Append(buf[:0], in[l.start:l.end])
		}
	}
}

func TestLevelWordSwitchMatchesList(t *testing.T) {
	for _, w := range levelWords {
		if !isLevelWord(w) {
			t.Errorf("%q missing from isLevelWord", w)
		}
	}
	n := 0
	for _, w := range []string{"error", "errors", "err", "fatal", "panic", "panicked", "warn", "warning", "warnings",
		"exception", "exceptions", "traceback", "failed", "failure", "failures", "fail",
		"critical", "crit", "severe", "emerg", "emergency", "alert", "abort", "aborted",
		"killed", "oom", "segfault", "denied", "refused", "unhealthy"} {
		if isLevelWord(w) {
			n++
		}
	}
	if n != len(levelWords) {
		t.Errorf("isLevelWord knows %d words, levelWords has %d", n, len(levelWords))
	}
}

func TestLongCustomLevelWord(t *testing.T) {
	m := newLevelMatcher([]string{"Misconfiguration"}, nil)
	if !m.important([]byte("found a MISCONFIGURATION here")) || m.important([]byte("configuration ok")) {
		t.Error("custom word longer than the built-in ones")
	}
	if !newLevelMatcher(nil, nil).important([]byte("java.lang.VeryLongNameForAnException: x")) {
		t.Error("long word ending in exception")
	}
}
