package view

// FillExactForTest is Fill with every rendering its search tries counted
// whole by c (the search Fill runs again when the counts by pieces
// disagree with exact ones).
func (v *View) FillExactForTest(c Counter, budget int) (*Filled, error) {
	return v.fillBy(v.order(), c.Count, budget)
}

// PieceCountForTest is the count of text Fill's search uses: the sum of
// the counts of its pieces (fillcount.go).
func PieceCountForTest(c Counter, text string) int { return newPieceCounter(c).count(text) }
