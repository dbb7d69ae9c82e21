package budget

// CheckOutput checks a level-1 output against the shape of its input
// exactly as Run does before it accepts a Compactor's output: declared
// counts equal the input's, the content is valid for its content type,
// and every input collection is still represented by exactly as many
// records (JSON recounted at the same paths, summing a declared
// CountField; a text/x-compact-table counted by rows; other text by
// lines, a line starting "[×N] " standing for N). The host's plugin
// checks and the plugin conformance kit call it so that they apply the
// pipeline's rules and no others. Errors about counts wrap
// ErrCountMismatch.
func CheckOutput(in Shape, out Output) error { return checkOutput(in, out) }
