package budget

// ResetCountCache empties the piece caches of every counter, so that a
// benchmark repeating the same input measures counting it for the first
// time, as a new tool output would be.
func ResetCountCache() {
	encMu.Lock()
	defer encMu.Unlock()
	for _, c := range pieceCache {
		c.mu.Lock()
		c.cur, c.old, c.bytes = map[string]int{}, nil, 0
		c.mu.Unlock()
	}
}
