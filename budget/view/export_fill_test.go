package view

// FillExactForTest is Fill's search with every rendering it tries
// counted whole by c (fillBy, the search for counters whose counts do
// not add up over pieces).
func (v *View) FillExactForTest(c Counter, budget int) (*Filled, error) {
	return v.fillBy(v.order(), c.Count, budget)
}

// PieceCountForTest is the count of text Fill's search uses: the sum of
// the counts of its pieces (fillcount.go).
func PieceCountForTest(c Counter, text string) int { return newPieceCounter(c).count(text) }

// FinePieceCountForTest is the count of text by the pieces cut also
// between digits and other characters, as the fill counts heads and
// feet (pieceCounter.countFine).
func FinePieceCountForTest(c Counter, text string) int { return newPieceCounter(c).countFine(text) }

// PrefixForTest returns the rendering of the first k candidates in fill
// order and the number of candidates.
func (v *View) PrefixForTest(k int) (string, int) {
	order := v.order()
	return v.render(order[:min(k, len(order))]), len(order)
}
