package pricing

import "math"

// Discount applies a percentage discount, rounding half up.
func Discount(cents int, pct float64) int {
	return int(math.Floor(float64(cents) * (1 - pct/100)))
}

// Tax adds VAT.
func Tax(cents int, rate float64) int {
	return int(math.Round(float64(cents) * (1 + rate)))
}
