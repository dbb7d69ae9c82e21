package pricing

import (
	"fmt"
	"testing"
	"time"
)

func TestDiscount(t *testing.T) {
	cases := []struct {
		cents int
		pct   float64
		want  int
	}{}
	for i := 1; i <= 80; i++ {
		cases = append(cases, struct {
			cents int
			pct   float64
			want  int
		}{i * 100, 10, i * 90})
	}
	cases = append(cases, struct {
		cents int
		pct   float64
		want  int
	}{999, 15, 849})
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d-%g", c.cents, c.pct), func(t *testing.T) {
			if got := Discount(c.cents, c.pct); got != c.want {
				t.Errorf("Discount(%d, %g) = %d, want %d", c.cents, c.pct, got, c.want)
			}
		})
	}
}

func TestTax(t *testing.T) {
	for i := 0; i < 40; i++ {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got, want := Tax(i*100, 0.2), i*120; got != want {
				t.Errorf("Tax = %d, want %d", got, want)
			}
		})
	}
}

func TestSlowRateTable(t *testing.T) {
	time.Sleep(1200 * time.Millisecond)
	t.Log("loaded 240 rates")
}
