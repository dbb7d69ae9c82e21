// Command restlist is compact's first-party REST-list compactor plugin
// (build it for GOOS=wasip1 GOARCH=wasm with -buildmode=c-shared; go
// generate in plugins/ writes plugins/dist/restlist.wasm, which the
// registry names builtin:restlist).
//
// Its input is a JSON array of objects (GitHub issues or pull requests,
// SQL rows, any REST list page) or an object holding one (the first member
// that is an array of objects, or the member named by config records). It
// keeps the fields a reader acts on and renders one table row per record,
// so the output header declares the collection with its exact count.
//
// Config keys (all optional):
//
//	keep     comma-separated field paths to show, in order, instead of the
//	         automatic choice: number,title,user.login,labels[].name
//	drop     comma-separated top-level members not to show (automatic
//	         choice only); "*_x" and "x_*" match suffixes and prefixes
//	format   table (default) or json: an array of objects keyed by path
//	records  .member: the member of a top-level object holding the records
//
// See docs/pdk.md for the table format and the automatic choice.
package main

func main() {}
