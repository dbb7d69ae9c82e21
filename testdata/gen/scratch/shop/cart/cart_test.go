package cart

import (
	"fmt"
	"testing"
)

func TestTotal(t *testing.T) {
	for i := 0; i < 60; i++ {
		t.Run(fmt.Sprintf("case-%02d", i), func(t *testing.T) {
			items := []Item{{SKU: "A", Qty: i, Cents: 250}, {SKU: "B", Qty: 1, Cents: 99}}
			if got, want := Total(items), i*250+99; got != want {
				t.Errorf("Total = %d, want %d", got, want)
			}
		})
	}
}

func TestCountNegative(t *testing.T) {
	items := []Item{{SKU: "A", Qty: -2, Cents: 100}, {SKU: "B", Qty: 3, Cents: 100}}
	if got := Count(items); got != 1 {
		t.Errorf("Count with a returned item = %d, want 1 (returns subtract)", got)
	}
}

func TestEmpty(t *testing.T) {
	if Total(nil) != 0 {
		t.Fatal("empty cart is not free")
	}
}
