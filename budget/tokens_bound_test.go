package budget

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/schemas"
)

// TestLowerBound checks LowerBound against the exact count of both
// encodings on the samples of TestEstimateUpperBound (whole, 4 KB and
// 300-byte slices), level 1's minified output of every captured JSON
// output, and text written to break its rules: contractions, letters
// and digits of other scripts next to ASCII ones, control characters,
// "/" after line breaks, long runs. Run with -v to see the ratios.
func TestLowerBound(t *testing.T) {
	if testing.Short() {
		t.Skip("counts a few MB exactly")
	}
	o, _ := NewCounter(EncodingO200k)
	c, _ := NewCounter(EncodingCL100k)
	samples := tokenSamples(t)
	for _, f := range capturedFiles(t) {
		data, _ := os.ReadFile(f)
		out, err := Declarative().Compact(context.Background(), Request{Input: data, Rules: Rules{Defaults: true}})
		if err == nil && out.ContentType == TypeJSON {
			samples["level1/"+filepath.Base(f)] = out.Content
		}
	}
	rng := rand.New(rand.NewSource(2))
	pick := func(parts []string, n int) []byte {
		var b strings.Builder
		for i := 0; i < n; i++ {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		return []byte(b.String())
	}
	samples["gen/contractions"] = pick([]string{"it", "'s", "'S", "'ll", "'re", "'", "''", "\"'", " ", "don", "'t", "x", "'d"}, 6000)
	samples["gen/scripts"] = pick([]string{"a", "b", "1", "23", "é", "ß", "١", "٢٣", "²", "Ω", " ", ".", "-", "'", "日", "\u0301", "\u00a0", "\u3000"}, 8000)
	samples["gen/controls"] = pick([]string{"a", "1", ".", "{", "\x01", "\x7f", "\v", "\f", "\x1c", "\x1f", " ", "  ", "\t", "\n", "\r", "/", "\x00"}, 8000)
	samples["gen/lines"] = pick([]string{"ab", "12", "\n", "\r\n", "\n\n", "/", "//", "}", ",", " ", "   ", "\t", "\n/", "x\n", "]\n"}, 8000)
	samples["gen/runs"] = []byte(strings.Repeat("a", 3000) + strings.Repeat("1", 3000) + strings.Repeat("!", 3000) + strings.Repeat(" ", 3000) + "x" + strings.Repeat("\n", 3000) + strings.Repeat("a1", 2000))
	for name, b := range samples {
		if len(b) > 200<<10 {
			b = b[:200<<10]
			for len(b) > 0 && !utf8.RuneStart(b[len(b)-1]) {
				b = b[:len(b)-1]
			}
			b = b[:max(0, len(b)-1)]
		}
		check := func(part []byte, what string) float64 {
			lb := LowerBound(part)
			exact := min(o.Count(string(part)), c.Count(string(part)))
			if lb > exact {
				t.Errorf("%s %s: LowerBound %d > exact %d: %q", name, what, lb, exact, part[:min(len(part), 200)])
			}
			if exact == 0 {
				return 1
			}
			return float64(lb) / float64(exact)
		}
		whole := check(b, "whole")
		lo, hi := whole, whole
		for size, limit := range map[int]int{4096: 64 << 10, 300: 8 << 10} {
			for s := 0; s+size <= len(b) && s < limit; s += size {
				e := s + size
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
		}
		t.Logf("%-40s whole %.2f×, slices %.2f–%.2f×", name, whole, lo, hi)
	}
}

// checkLowerBoundStops checks that the early-stopping bound agrees with
// LowerBound (full, lb) at limits around it: over exactly when lb >
// limit, and a partial bound that is over the limit and at most lb.
func checkLowerBoundStops(t *testing.T, data []byte, lb int) {
	t.Helper()
	for _, limit := range []int{-1, 0, 1, lb / 3, lb / 2, lb - 1, lb, lb + 1} {
		n, over := lowerBound(data, limit)
		switch {
		case limit < 0 && (n != lb || over):
			t.Fatalf("lowerBound(limit %d) = %d, %v; LowerBound %d", limit, n, over, lb)
		case limit >= 0 && over != (lb > limit):
			t.Fatalf("lowerBound(limit %d) over = %v; LowerBound %d", limit, over, lb)
		case limit >= 0 && over && (n <= limit || n > lb):
			t.Fatalf("lowerBound(limit %d) = %d; want in (limit, %d]", limit, n, lb)
		case limit >= 0 && !over && n != lb:
			t.Fatalf("lowerBound(limit %d) = %d, not over; LowerBound %d", limit, n, lb)
		case limit >= 0 && lowerBoundOver(data, limit) != over:
			t.Fatalf("lowerBoundOver(limit %d) disagrees with lowerBound", limit)
		}
	}
}

// TestLowerBoundStops checks the early-stopping bound the pipeline uses
// against LowerBound on the captured outputs and the token samples.
func TestLowerBoundStops(t *testing.T) {
	samples := tokenSamples(t)
	for _, f := range capturedFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		samples["captured/"+filepath.Base(f)] = data
	}
	for name, b := range samples {
		t.Run(name, func(t *testing.T) { checkLowerBoundStops(t, b, LowerBound(b)) })
	}
}

// TestCountUpTo checks the bounded count against Count, and both against
// the tokenizer run on the whole text (the pieces must add up exactly):
// on pretty-printed captured JSON, on level 1's minified JSON of it (one
// long line, cut only between digits and other characters) and on logs.
func TestCountUpTo(t *testing.T) {
	if testing.Short() {
		t.Skip("counts about 2 MB exactly")
	}
	var texts []string
	for _, f := range []string{"kubectl-pods.json", "github-issues.json", "app-log.jsonl", "sqlite-orders.json"} {
		data, err := os.ReadFile(filepath.Join("../testdata/captured", f))
		if err != nil {
			t.Fatal(err)
		}
		data = data[:min(len(data), 120<<10)]
		for len(data) > 0 && !utf8.RuneStart(data[len(data)-1]) {
			data = data[:len(data)-1]
		}
		texts = append(texts, string(data))
		out, err := Declarative().Compact(context.Background(), Request{Input: data, Rules: Rules{Defaults: true}})
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(out.Content))
		// The same as one line: only the cuts between digits and other
		// characters apply.
		var one bytes.Buffer
		if json.Compact(&one, out.Content) == nil && strings.Count(one.String(), "\n") == 0 {
			texts = append(texts, one.String())
		}
	}
	if len(texts) < 7 {
		t.Fatalf("only %d texts; want the JSON level 1 outputs as one line too", len(texts))
	}
	for _, enc := range []string{EncodingO200k, EncodingCL100k} {
		c, _ := NewCounter(enc)
		for i, text := range texts {
			whole := refCount(t, enc, text)
			if got := c.Count(text); got != whole {
				t.Errorf("%s text %d: Count %d, whole %d", enc, i, got, whole)
			}
			for _, limit := range []int{0, 1, 100, 5000, whole - 1, whole, whole + 1, 1 << 30} {
				n, over := CountUpTo(c, text, limit)
				switch {
				case over != (whole > limit):
					t.Errorf("%s text %d limit %d: over %v, exact %d", enc, i, limit, over, whole)
				case !over && n != whole:
					t.Errorf("%s text %d limit %d: n %d, exact %d", enc, i, limit, n, whole)
				case over && (n <= limit || n > whole):
					t.Errorf("%s text %d limit %d: n %d not in (limit, %d]", enc, i, limit, n, whole)
				}
			}
		}
	}
}

// plainCounter is a Counter without CountUpTo.
type plainCounter struct{ Counter }

// TestCountUpToFallback checks the CountUpTo function with a Counter that
// cannot stop early: it counts everything and still reports over.
func TestCountUpToFallback(t *testing.T) {
	c, _ := NewCounter("")
	p := plainCounter{c}
	if _, ok := any(p).(BoundedCounter); ok {
		t.Fatal("plainCounter should not be a BoundedCounter")
	}
	if n, over := CountUpTo(p, "hello world", 1); n != 2 || !over {
		t.Errorf("CountUpTo(plain, limit 1) = %d, %v; want 2, true", n, over)
	}
	if n, over := CountUpTo(p, "hello world", 2); n != 2 || over {
		t.Errorf("CountUpTo(plain, limit 2) = %d, %v; want 2, false", n, over)
	}
}

// spyCounter records the longest text each method was given.
type spyCounter struct {
	BoundedCounter
	maxCount, maxUpTo, upTo int
}

func (s *spyCounter) Count(text string) int {
	s.maxCount = max(s.maxCount, len(text))
	return s.BoundedCounter.Count(text)
}

func (s *spyCounter) CountUpTo(text string, limit int) (int, bool) {
	s.maxUpTo, s.upTo = max(s.maxUpTo, len(text)), s.upTo+1
	return s.BoundedCounter.CountUpTo(text, limit)
}

// TestRunCountsOnlyWhatItShows checks the counting policy of Run: an
// input over 64 KiB that does not fit and a level 1 output far over the
// budget are never counted whole; tokens.before is then the flagged
// estimate; an input that fits is counted exactly whatever its size.
func TestRunCountsOnlyWhatItShows(t *testing.T) {
	c, _ := NewCounter("")
	ctx := context.Background()
	big := records(3000) // about 700 KB
	if len(big) <= exactBeforeLimit {
		t.Fatalf("input only %d bytes", len(big))
	}
	// Far over: LowerBound rejects both the input and level 1's output.
	spy := &spyCounter{BoundedCounter: c.(BoundedCounter)}
	_, err := NewPipeline(spy).Run(ctx, Input{Data: big, Budget: 2000})
	var fe *FitError
	if !errors.As(err, &fe) || !fe.AtLeast || fe.Tokens <= 2000 || !strings.Contains(err.Error(), "at least") {
		t.Fatalf("want a FitError with a lower bound, got %v", err)
	}
	if spy.maxCount > 0 || spy.upTo > 0 {
		t.Errorf("counted %d bytes with Count, %d calls of CountUpTo; want none", spy.maxCount, spy.upTo)
	}
	// Near the budget: the lower bound cannot decide, CountUpTo does, and
	// stops early.
	exact := c.Count(string(big))
	spy = &spyCounter{BoundedCounter: c.(BoundedCounter)}
	_, err = NewPipeline(spy).Run(ctx, Input{Data: big, Budget: exact - 10, Rules: Rules{Format: "json"}})
	if !errors.As(err, &fe) || !fe.AtLeast || fe.Tokens <= exact-10 || fe.Tokens > exact {
		t.Fatalf("want a FitError with a count in (budget, exact], got %v", err)
	}
	if spy.maxCount > 0 || spy.upTo == 0 {
		t.Errorf("Count saw %d bytes, CountUpTo was called %d times; want only CountUpTo", spy.maxCount, spy.upTo)
	}
	// Fits: exact after, and before too.
	r, err := NewPipeline(c).Run(ctx, Input{Data: big, Budget: exact})
	if err != nil || r.Level != schemas.LevelNone || r.Tokens.After != exact || r.Tokens.Before != exact || r.Tokens.BeforeEstimated {
		t.Fatalf("fitting input: %v %+v", err, r.Tokens)
	}
	// Level 1 fits: after is exact, before the flagged upper bound.
	r, err = NewPipeline(c).Run(ctx, Input{Data: big, Budget: exact / 2, Rules: Rules{Keep: []string{"number", "title"}}})
	if err != nil || r.Level != schemas.LevelFields || r.Tokens.After != c.Count(r.Content) ||
		!r.Tokens.BeforeEstimated || r.Tokens.Before != Estimate(big) {
		t.Fatalf("level 1: %v %+v", err, r.Tokens)
	}
	// Small inputs keep an exact before even when they do not fit.
	small := records(20)
	r, err = NewPipeline(c).Run(ctx, Input{Data: small, Budget: 400, Rules: Rules{Keep: []string{"number"}}})
	if err != nil || r.Tokens.BeforeEstimated || r.Tokens.Before != c.Count(string(small)) {
		t.Fatalf("small input: %v %+v", err, r.Tokens)
	}
}
