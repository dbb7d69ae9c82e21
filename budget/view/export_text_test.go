package view

// TextErrorsForTest is the error lines analyzeText counts in data and
// the query the view prints for all of them.
func TextErrorsForTest(data []byte) (int, string) {
	p := analyzeText(data, nil)
	return p.errors, p.severityQuery(sevError)
}

// ParseNameLineForTest reads a line of the listing of key/value entries
// by name back into the entries it states (text_kvnames.go).
var ParseNameLineForTest = parseNameLine
