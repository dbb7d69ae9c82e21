package query

import (
	"context"
	"errors"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stringBombs are jq filters that build strings or arrays far larger than
// their input in a few Go builtins (issue 12). On the old code each ran
// one uninterruptible builtin to gigabytes-scale sizes: the deadline and
// the heap watch, checked between operations, came too late.
var stringBombs = map[string]string{
	"add of shared strings": `("x"*2e7) as $s | [$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s] | add | length`,
	"doubling +":            `reduce range(30) as $i ("x"*1e6; . + .) | length`,
	"tojson of shared":      `("x"*2e7) as $s | [range(20) | $s] | tojson | length`,
	"join of shared":        `("x"*2e7) as $s | [range(20) | $s] | join(",") | length`,
	"interpolation":         `("x"*2e7) as $s | "\([range(20) | $s])" | length`,
	"format":                `("x"*2e7) as $s | [range(20) | $s] | @json | length`,
	"output of shared":      `("x"*2e7) as $s | [range(20) | $s]`,
	"repeat":                `"x"*3e8 | length`,
	"explode":               `"x"*2e7 | explode | length`,
	// gojq's regex builtins are one uninterruptible Go call each, quadratic
	// with many matches: these ran 11-22 s against the 5 s deadline.
	"split by regex": `"x"*2e5 | split(""; null) | length`,
	"match global":   `"x"*2e5 | [match(""; "g")] | length`,
	"gsub":           `"x"*2e5 | gsub(""; "y") | length`,
	"scan":           `"x"*2e5 | [scan("")] | length`,
}

// TestJQStringBombsBounded: each bomb fails with ErrLimit well within the
// deadline, and the heap never grows by more than MaxMemory plus a fixed
// margin while it runs.
func TestJQStringBombsBounded(t *testing.T) {
	const maxMem = 256 << 20
	const margin = 128 << 20
	const timeout = 5 * time.Second
	e := newEnv(t, Options{Timeout: timeout, MaxMemory: maxMem})
	h := e.put(t, []byte(`{"a":1}`))
	for name, filter := range stringBombs {
		t.Run(name, func(t *testing.T) {
			runtime.GC()
			base := heapBytes()
			stop := make(chan struct{})
			peak := make(chan int64)
			go func() {
				var p int64
				tk := time.NewTicker(time.Millisecond)
				defer tk.Stop()
				for {
					if g := heapBytes() - base; g > p {
						p = g
					}
					select {
					case <-stop:
						peak <- p
						return
					case <-tk.C:
					}
				}
			}()
			start := time.Now()
			_, err := e.q.JQ(context.Background(), h, filter, 500)
			took := time.Since(start)
			close(stop)
			grown := <-peak
			if !errors.Is(err, ErrLimit) {
				t.Errorf("err = %v, want ErrLimit", err)
			}
			if err != nil && !strings.Contains(err.Error(), "MiB") && !strings.Contains(err.Error(), "bytes") {
				t.Errorf("error does not say what limit: %v", err)
			}
			if took > timeout+time.Second {
				t.Errorf("took %v, deadline %v", took, timeout)
			}
			if grown > maxMem+margin {
				t.Errorf("heap grew by %d MiB, cap %d MiB + margin %d MiB", grown>>20, maxMem>>20, margin>>20)
			}
			t.Logf("%v in %v, heap +%d MiB", err, took.Round(time.Millisecond), grown>>20)
		})
	}
}

// Honest queries over the same operators still give jq's results.
func TestJQBoundedOperatorsKeepResults(t *testing.T) {
	e := newEnv(t, Options{})
	h := e.put(t, []byte(`{"a":[1,2],"b":"xy","o":{"k":1}}`))
	for filter, want := range map[string]string{
		`.a + [3]`:                            `[1,2,3]`,
		`.b + "z"`:                            `"xyz"`,
		`(1,2) + (10,20)`:                     "11\n12\n21\n22",
		`.o * {"j":2}`:                        `{"j":2,"k":1}`,
		`.b * 2`:                              `"xyxy"`,
		`[.a[] | tostring] | join("-")`:       `"1-2"`,
		`.a | add`:                            `3`,
		`.o | tojson`:                         `"{\"k\":1}"`,
		`"v=\(.a)"`:                           `"v=[1,2]"`,
		`.a | @json`:                          `"[1,2]"`,
		`.b | explode`:                        `[120,121]`,
		`.b | split("")`:                      `["x","y"]`,
		`def add: 42; add`:                    `42`,
		`null + 1`:                            `1`,
		`try ("x" * 1e12) catch "caught"`:     `"caught"`,
		`.b | test("y")`:                      `true`,
		`.b | [match("."; "g").string]`:       `["x","y"]`,
		`.b | gsub("x"; "z")`:                 `"zy"`,
		`.b | sub("(?<c>x)"; "\(.c)!")`:       `"x!y"`,
		`.b | split(""; null)`:                `["","x","y",""]`,
		`.b | [scan(".")]`:                    `["x","y"]`,
		`.b | capture("(?<first>.)").first`:   `"x"`,
		`.b | [test("x"), test("q")]`:         `[true,false]`,
		`def test(x): "mine"; .b | test("q")`: `"mine"`,
	} {
		a, err := e.q.JQ(context.Background(), h, filter, 500)
		if err != nil {
			t.Errorf("%s: %v", filter, err)
			continue
		}
		if got := strings.TrimSpace(a.Content); got != want {
			t.Errorf("%s = %s, want %s", filter, got, want)
		}
	}
}

// TestJQStreamedBombsBounded: a filter that iterates the records of an
// artifact larger than MaxInput is run record by record (jqstream.go);
// the rest of the filter is bounded the same way.
func TestJQStreamedBombsBounded(t *testing.T) {
	e := newEnv(t, Options{Timeout: 5 * time.Second, MaxMemory: 256 << 20, MaxInput: 1 << 10})
	var b strings.Builder
	b.WriteString("[")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":` + strconv.Itoa(i) + `,"msg":"a record of the artifact"}`)
	}
	b.WriteString("]")
	h := e.put(t, []byte(b.String()))
	if a, err := e.q.JQ(context.Background(), h, `.[] | .id + 1`, 500); err != nil || !strings.Contains(a.Content, "100") {
		t.Fatalf("streamed honest filter: %v %q", err, a.Content)
	}
	start := time.Now()
	_, err := e.q.JQ(context.Background(), h, `.[] | ("x"*2e7) as $s | [$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s] | add | length`, 500)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "would build a value") || time.Since(start) > 5*time.Second {
		t.Fatalf("streamed bomb: %v after %v", err, time.Since(start))
	}
	_, err = e.q.JQ(context.Background(), h, `.[] | ("x"*2e7) as $s | [range(20) | $s]`, 500)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "produced more than") {
		t.Fatalf("streamed output bomb: %v", err)
	}
}
