package view

import (
	"fmt"
	"strings"
	"testing"
)

// TestSharedStartLabels: an '=' inside {labels} or quotes assigns a
// label its value and does not end a word of names (rev14 R7): the 30
// samples 'up{instance="hN:9100"}' of a prometheus text share the start
// 'up{instance="h…', which 2a389e3 lost when '=' became a word's end
// (its names line kept only 'upstream_… 60'). An '=' outside labels
// still ends one (gcc's '--param=…').
func TestSharedStartLabels(t *testing.T) {
	var b strings.Builder
	b.WriteString("# HELP up Whether the target is up.\n# TYPE up gauge\n")
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "up{instance=\"h%d:9100\"} %d\n", i, 1-i%7/6)
	}
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "upstream_latency_seconds{instance=\"h%d:9100\"} 0.%03d\n", i, 100+7*i)
	}
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&b, "upstream_errors_total{instance=\"h%d:9100\"} %d\n", i, 3*i)
	}
	b.WriteString("go_goroutines 12\n")
	for _, budget := range []int{2000, 8000} {
		text := fillText(t, []byte(b.String()), budget)
		if !strings.Contains(text, `up{instance="h… 30`) {
			t.Errorf("at %d: no shared start 'up{instance=\"h…' 30:\n%s", budget, text)
		}
	}
	for _, c := range []struct {
		p   string
		end bool
		ok  bool
	}{
		{`up{instance="h`, false, true},
		{`--param=`, false, true},
		{`BenchmarkCRC32/poly=`, false, true},
		{`=IEEE`, true, true},
		{`="h1"}`, true, false},
	} {
		if got := wordPart(c.p, c.end); got != c.ok {
			t.Errorf("wordPart(%q, %v) = %v, want %v", c.p, c.end, got, c.ok)
		}
	}
}
