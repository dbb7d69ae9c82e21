package view

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

// WatchPartsForTest wraps every section's head and foot so that bad is
// called with each one a rendering writes that the fill's bounds do not
// allow: a head or a foot that does not start a piece, or an empty head
// of chosen candidates in a section with a line that starts no piece.
func (v *View) WatchPartsForTest(bad func(what, text string)) {
	joined := map[int]bool{}
	for _, c := range v.cands {
		if c.lazy == nil && !pieceStart(c.Text+"\n", 0) {
			joined[c.Section] = true
		}
	}
	for i, s := range v.sections {
		if h := s.Head; h != nil {
			s.Head = func(cs []Candidate) string {
				t := h(cs)
				if !piecePart(t) || t == "" && len(cs) > 0 && joined[i] {
					bad("head", t)
				}
				return t
			}
		}
		if f := s.Foot; f != nil {
			s.Foot = func(cs []Candidate) string {
				t := f(cs)
				if !piecePart(t) {
					bad("foot", t)
				}
				return t
			}
		}
	}
}
