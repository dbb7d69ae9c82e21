package view

// TextErrorsForTest is the error lines analyzeText counts in data and
// the query the view prints for all of them.
func TextErrorsForTest(data []byte) (int, string) {
	p := analyzeText(data, nil)
	return p.errors, p.severityQuery(sevError)
}
