// Package budget makes a tool output fit a token budget without silent
// loss. It owns token counting, the detection and exact counting of record
// collections, the declarative field compression of level 1, the pipeline
// that tries the four levels in order and re-checks record counts after
// every step, and (in packages below it) the artifact store and the
// queries over stored artifacts.
//
// budget imports schemas and third-party libraries only; it never imports
// registry or host. The host package adapts registry entries and plugins to
// the Rules and Compactor types defined here.
package budget
