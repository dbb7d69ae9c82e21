package budget

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// capturedFiles lists the captured tool outputs of testdata/captured.
func capturedFiles(t testing.TB) []string {
	t.Helper()
	all, err := filepath.Glob("../testdata/captured/*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range all {
		if strings.HasSuffix(f, ".yaml") || strings.HasSuffix(f, ".md") {
			continue
		}
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			out = append(out, f)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d captured outputs in ../testdata/captured; the corpus has at least 10", len(out))
	}
	return out
}

// TestLevel1Captured runs level 1 with the built-in cleanups on every
// captured output and checks the pipeline's invariants on the result.
func TestLevel1Captured(t *testing.T) {
	for _, f := range capturedFiles(t) {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			shape, err := DetectShape(data, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(shape.Collections) == 0 {
				t.Fatalf("no collection found in %s (format %s)", f, shape.Format)
			}
			for _, format := range []string{"json", "auto"} {
				out, err := Declarative().Compact(context.Background(), Request{Input: data,
					Rules: Rules{Defaults: true, StringsMax: 120, Format: format}})
				if err != nil {
					t.Fatal(err)
				}
				if err := checkOutput(shape, out); err != nil {
					t.Errorf("format %s: %v", format, err)
				}
				if out.ContentType == TypeJSON && !json.Valid(out.Content) {
					t.Errorf("format %s: output is not valid JSON", format)
				}
				if len(out.Content) > len(data)+len(data)/10 {
					t.Errorf("format %s: output %d bytes grew from %d", format, len(out.Content), len(data))
				}
				if out.ContentType == TypeTable {
					if _, err := TableToJSON(out.Content); err != nil {
						t.Errorf("table does not parse back: %v", err)
					}
				}
			}
		})
	}
}

// tokenSamples returns the texts the token bounds are checked on: the
// captured outputs, the repository's own Go and Markdown files, and
// generated adversarial text (random punctuation, white space, hex,
// base64, CJK and emoji).
func tokenSamples(t *testing.T) map[string][]byte {
	samples := map[string][]byte{}
	for _, f := range capturedFiles(t) {
		b, _ := os.ReadFile(f)
		samples["captured/"+filepath.Base(f)] = b
	}
	for _, pat := range []string{"../budget/*.go", "../*.md", "../docs/*.md"} {
		files, _ := filepath.Glob(pat)
		for _, f := range files {
			b, _ := os.ReadFile(f)
			samples["repo/"+filepath.Base(f)] = b
		}
	}
	rng := rand.New(rand.NewSource(1))
	gen := func(alphabet []rune, n int) []byte {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteRune(alphabet[rng.Intn(len(alphabet))])
		}
		return []byte(b.String())
	}
	samples["gen/punct"] = gen([]rune("{}[]()<>!@#$%^&*-_=+|;:,./?~`'\"\\"), 20000)
	samples["gen/space"] = gen([]rune(" \t\nab"), 20000)
	samples["gen/hex"] = gen([]rune("0123456789abcdef"), 20000)
	samples["gen/base64"] = gen([]rune("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"), 20000)
	var cjk, emoji []rune
	for r := rune(0x4e00); r < 0x9fff; r += 7 {
		cjk = append(cjk, r)
	}
	for r := rune(0x1F300); r < 0x1F5FF; r++ {
		emoji = append(emoji, r)
	}
	samples["gen/cjk"] = gen(cjk, 8000)
	samples["gen/emoji"] = gen(emoji, 4000)
	return samples
}

// TestEstimateUpperBound checks Estimate against the exact count of both
// encodings on the captured outputs (the first 200 KB of each, and 4 KB
// slices), the repository's own Go and Markdown files, and generated
// adversarial text (random punctuation, white space, hex, base64, CJK and
// emoji). Run with -v to see the overestimate ratios.
func TestEstimateUpperBound(t *testing.T) {
	if testing.Short() {
		t.Skip("counts a few MB exactly")
	}
	o, _ := NewCounter(EncodingO200k)
	c, _ := NewCounter(EncodingCL100k)
	samples := tokenSamples(t)
	for name, b := range samples {
		if len(b) > 200<<10 {
			b = b[:200<<10]
			for len(b) > 0 && !utf8.RuneStart(b[len(b)-1]) {
				b = b[:len(b)-1]
			}
			b = b[:max(0, len(b)-1)]
		}
		check := func(part []byte, what string) float64 {
			est := Estimate(part)
			exact := max(o.Count(string(part)), c.Count(string(part)))
			if est < exact {
				t.Errorf("%s %s: Estimate %d < exact %d", name, what, est, exact)
			}
			if exact == 0 {
				return 1
			}
			return float64(est) / float64(exact)
		}
		whole := check(b, "whole")
		lo, hi := whole, whole
		for s := 0; s+4096 <= len(b) && s < 64<<10; s += 4096 {
			e := s + 4096
			st := s
			for st < e && !utf8.RuneStart(b[st]) {
				st++
			}
			for e < len(b) && !utf8.RuneStart(b[e]) {
				e++
			}
			r := check(b[st:e], fmt.Sprintf("bytes %d-%d", st, e))
			lo, hi = min(lo, r), max(hi, r)
		}
		t.Logf("%-40s whole %.2f×, 4 KB slices %.2f–%.2f×", name, whole, lo, hi)
	}
}
