// Package query answers questions about stored artifacts without handing
// the model the whole artifact: Get (the exact bytes, or the sub-value at
// a reference's path), JQ (a gojq program, with a deadline and size caps),
// Slice (records or lines by position) and Search (lexical, BM25-ranked,
// whole records with their positions).
//
// Every answer is budgeted. An answer that fits the caller's token budget
// is returned whole; one that does not is stored as a new artifact and the
// answer becomes a summary with exact counts, the first items that fit and
// the new handle. Nothing is ever cut silently.
//
// Parsed artifacts (bytes, detected shape, decoded values, search index)
// live in a cache bounded by bytes and evicted least recently used first,
// so repeated queries on one artifact do not re-read or re-parse it.
package query
