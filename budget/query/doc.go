// Package query answers questions about stored artifacts without handing
// the model the whole artifact: Get (the exact bytes, or the sub-value at
// a reference's path), JQ (a gojq program, with a deadline and size caps),
// Slice (records or lines by position) and Search (lexical, BM25-ranked,
// whole records with their positions).
//
// # What jq reads
//
// A jq filter runs once, on one input built from the artifact's shape
// (budget.DetectShapeAs with the content type stored with it, as level 2
// detected it for the view), so that the same filter means the same thing
// on every kind of artifact:
//
//   - one JSON value: that value;
//   - JSON Lines, or JSON values one after another (go list -json): one
//     array of the values, as jq -s reads them, so length counts the
//     values and map(.f) maps over them;
//   - text (anything else that is not binary, including invalid JSON):
//     one array of its lines as strings, as jq -R -s 'split("\n")' reads
//     it but without the empty string after a final newline. A "\r" that
//     ends a line is removed, so CRLF text reads like LF text; invalid
//     UTF-8 becomes U+FFFD, one per run of bad bytes (see Lines). An empty
//     artifact is the empty array.
//
// Binary artifacts are refused (ErrNotJSON); get them whole. An artifact
// stored as text (a text/* or JSON content type) is never binary, whatever
// bytes it holds.
//
// A reference's path indexes that same input: HANDLE[3] is the 4th value
// of JSON Lines or line 3 of text, and HANDLE[3].msg its member msg (a
// path into text ends at its line). Position i of Slice and Search over
// the values or lines is element i of the array, so the three agree.
//
// # Budgets and caching
//
// Every answer is budgeted. An answer that fits the caller's token budget
// is returned whole; one that does not is stored as a new artifact and the
// answer becomes a summary with exact counts, the first items that fit and
// the new handle. Nothing is ever cut silently.
//
// Parsed artifacts (bytes, detected shape, the jq input, search index)
// live in a cache bounded by bytes and evicted least recently used first,
// so repeated queries on one artifact do not re-read or re-parse it.
package query
