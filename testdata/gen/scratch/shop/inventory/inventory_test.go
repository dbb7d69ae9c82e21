package inventory

import (
	"fmt"
	"testing"
)

func TestReserve(t *testing.T) {
	for i := 0; i < 70; i++ {
		t.Run(fmt.Sprintf("sku-%03d", i), func(t *testing.T) {
			s := Stock{"X": 10}
			if !s.Reserve("X", i%10) {
				t.Errorf("could not reserve %d", i%10)
			}
		})
	}
}

func TestReserveNil(t *testing.T) {
	var s Stock
	s.Reserve("X", 0)
	s["X"] = 1 // panics: assignment to entry in nil map
}
