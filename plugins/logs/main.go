// Command logs is compact's first-party log compactor plugin (build it for
// GOOS=wasip1 GOARCH=wasm with -buildmode=c-shared; go generate in plugins/
// writes plugins/dist/logs.wasm, which the registry names builtin:logs).
//
// It collapses repeated lines into templates with exact counts, keeps every
// error and warning line verbatim, and accounts for every input line: each
// output line is either an input line copied verbatim or starts with the
// ABI's group marker "[×N] " and stands for N input lines. The output
// header declares the collection "." (the input's lines) with the exact
// line count. The output is a deterministic function of the input and the
// config.
//
// Config keys (all optional):
//
//	scope         global (default): group across the whole input, each
//	              group shown where its first line was; segment: groups
//	              never span an error or warning line
//	min_count     smallest group that is collapsed (default 2)
//	keep_words    extra comma-separated words that make a line important
//	ignore_words  comma-separated level words not to treat as important
//
// See docs/pdk.md for the template rules.
package main

func main() {}
