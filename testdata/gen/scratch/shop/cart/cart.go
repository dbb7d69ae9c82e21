package cart

// Item is one line of a cart.
type Item struct {
	SKU   string
	Qty   int
	Cents int
}

// Total sums the cart.
func Total(items []Item) int {
	t := 0
	for _, it := range items {
		t += it.Qty * it.Cents
	}
	return t
}

// Count counts the units.
func Count(items []Item) int {
	n := 0
	for _, it := range items {
		if it.Qty > 0 {
			n += it.Qty
		}
	}
	return n
}
