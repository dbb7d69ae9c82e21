package pricing

// Add adds.
func Add(a, b int) int { return a + b }
