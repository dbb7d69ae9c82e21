package inventory

// Stock maps SKUs to units.
type Stock map[string]int

// Reserve takes n units of sku.
func (s Stock) Reserve(sku string, n int) bool {
	if s[sku] < n {
		return false
	}
	s[sku] -= n
	return true
}
