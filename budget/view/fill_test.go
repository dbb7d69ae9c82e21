package view

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestFillMonotone(t *testing.T) {
	v := &View{Header: "header line\n"}
	sec := v.AddSection(&Section{Coll: ".", Head: func(c []Candidate) string {
		return fmt.Sprintf("showing %d\n", len(c))
	}})
	for i := 0; i < 50; i++ {
		prio := PrioSpread
		if i%7 == 0 {
			prio = PrioAnomaly
		}
		v.Add(Candidate{Section: sec, Key: i, Record: i, Prio: prio, Text: strings.Repeat("w ", 1+i%5) + fmt.Sprint(i)})
	}
	var prev map[int]bool
	for budget := 4; budget < 300; budget += 7 {
		f, err := v.Fill(wordCounter{}, budget)
		if err != nil {
			t.Fatal(err)
		}
		if f.Tokens > budget || (wordCounter{}).Count(f.Text) != f.Tokens {
			t.Fatalf("budget %d: %d tokens", budget, f.Tokens)
		}
		got := map[int]bool{}
		for _, c := range f.Chosen {
			got[c.Record] = true
		}
		for r := range prev {
			if !got[r] {
				t.Fatalf("budget %d lost record %d shown at a smaller budget", budget, r)
			}
		}
		// The next candidate in fill order would not fit.
		order := v.Candidates()
		if k := len(f.Chosen); k < len(order) {
			if n := (wordCounter{}).Count(v.render(order[:k+1])); n <= budget {
				t.Fatalf("budget %d: %d candidates chosen but %d fit", budget, k, k+1)
			}
		}
		prev = got
	}
	if _, err := v.Fill(wordCounter{}, 2); !errors.Is(err, ErrTooSmall) {
		t.Fatalf("want ErrTooSmall, got %v", err)
	}
	// Anomalies come first.
	f, _ := v.Fill(wordCounter{}, 30)
	for _, c := range f.Chosen {
		if c.Prio != PrioAnomaly {
			t.Fatalf("a spread row was chosen before every anomaly: %+v", c)
		}
	}
}
