package view

import (
	"cmp"
	"slices"
	"strings"
	"sync"

	"github.com/toolcompact/compact/budget/internal/format"
)

// Counter counts tokens exactly (budget.Counter satisfies it).
type Counter interface {
	Count(text string) int
}

// Priorities of candidates: lower is shown first. Candidates of one
// priority keep the order in which they were added.
const (
	PrioCount      = 5  // the exact count of a collection listed with its siblings (fold.go)
	PrioFact       = 10 // a top-level fact: a scalar outside every collection
	PrioProfile    = 20 // the profile line of an important field (identity, distributions)
	PrioPinned     = 30 // a row the registry's pin predicate selects
	PrioAnomaly    = 40 // an error/warn/failed state, an error line, a numeric outlier
	PrioEnds       = 45 // the first and the last record, extremes
	PrioRare       = 50 // a rare value, a field most rows lack, relevant to the request
	PrioProfile2   = 70 // the profile line of a less important field
	PrioIndexSmall = 71 // the index of a small collection, every record (index.go)
	PrioSecond     = 80 // the second round of anomaly and rare rows
	PrioEnds2      = 72 // the extremes past the first round
	PrioRare2      = 73 // a value rare among many values (rows.go)
	PrioIndex      = 75 // a record's line in a collection's index (index.go)
	PrioSpread     = 90 // an even spread over the records
	PrioObject     = 95 // object summaries and long facts
	PrioRemaining  = 99 // anything else
)

// Candidate is one piece the view may show.
type Candidate struct {
	// Section is the index of the section it renders in (AddSection).
	Section int
	// Key orders the chosen candidates of a section when rendered
	// (record or line number; facts use their document order).
	Key int
	// Record is the record the candidate shows, or -1.
	Record int
	// More are the other records the candidate shows (a line listing
	// the keys of a map that hold one value), counted as shown.
	More []int
	// Prio is one of the Prio constants.
	Prio int
	// Rank orders candidates of one priority across sections: the n-th
	// row of every collection before the (n+1)-th of any (0 for
	// candidates that need no interleaving).
	Rank int
	// Reason says why the candidate is there, in plain words.
	Reason string
	// Text is what is shown: complete lines without the final newline.
	Text string

	seq  int       // the order of Add
	lazy *lazyText // Text made on first use (a row), or nil
}

// lazyText is a candidate's text made when first needed: a row's record
// is read again only when the fill reaches it (or Candidates is called),
// not for every row a reason chose.
type lazyText struct {
	once sync.Once
	make func() string
	text string
}

// text returns the candidate's text, making it on first use.
func (c *Candidate) text() string {
	if c.lazy == nil {
		return c.Text
	}
	c.lazy.once.Do(func() { c.lazy.text, c.lazy.make = c.lazy.make(), nil })
	return c.lazy.text
}

// Section is one block of the view: a header, the chosen candidates in
// Key order, a footer.
type Section struct {
	// Coll is the path of the collection the section shows, or "".
	Coll string
	// Head and Foot render the lines before and after the chosen
	// candidates (each line ending in "\n"); they get the section's
	// chosen candidates in Key order. Either may be nil. The first line
	// of each is a title or a count, never a blank line, and a Head
	// writes a line when given candidates: the fill bounds a rendering's
	// count by its candidates' lines (fill.go; TestViewPartsStartPieces).
	Head func(chosen []Candidate) string
	Foot func(chosen []Candidate) string
	// Order places sections: lower first, then the order added.
	Order int
	// shared marks a Head or Foot that reads or writes state other
	// sections' heads share (the sections of a text): the fill counts
	// such a view's renderings whole, not section by section.
	shared bool
	// weight is how much of the output the collection holds (its
	// scalar values, less those of the collections inside it): the
	// profile lines of a heavier collection are chosen first (rank).
	weight int
	// graph marks the section of a collection's graph (json_graph.go):
	// its summary lines come with the profiles only when its collection
	// is the heaviest of the output (rankByWeight).
	graph bool
}

// View is the candidates of one output, before and after the fill.
type View struct {
	// Header is the first lines of every view (what the output is, the
	// handle), each ending in "\n".
	Header string
	// hdrAt is where Header states the budget, hdrBudget (Build's): the
	// fill keeps room for the header of a larger budget (headerSlack).
	hdrAt, hdrBudget int
	sections         []*Section
	cands            []Candidate
	// tree is the output's dependency tree, or nil (deptree.go).
	tree *depTree
	// items are the collections of items the view shows in place of
	// its input's records (Items).
	items []Items
	// noGraph holds the collections whose profile has no name member and
	// list of strings a graph needs (json_graph.go: their records are
	// not read for one).
	noGraph map[int]bool
}

// Items is a collection the view shows that is none of its input's: the
// items of the records of collection Of when every record is an array of
// objects (gcc's JSON diagnostics: a stream of arrays, one a
// translation unit), Count of them in all, shown at path Path (".[]")
// as a collection of Kind "array" with its own profile and rows.
//
// With Nodes, Of is the children of the root of a tree of unnamed nodes
// (EXPLAIN's .[].Plan.Plans) and Path (a jq expression yielding an
// array: "[.[].Plan | recurse(.Plans[]?) | del(.Plans)]") the nodes at
// every depth, the root included (json_nodes.go).
type Items struct {
	Path, Kind, Of string
	Count          int
	Nodes          bool
}

// Items returns the collections of items the view shows in place of its
// input's records, in the order of their collections; their rows count
// in Filled.Shown by Path.
func (v *View) Items() []Items { return v.items }

// AddSection adds a section and returns its index for Candidate.Section.
func (v *View) AddSection(s *Section) int {
	v.sections = append(v.sections, s)
	return len(v.sections) - 1
}

// Add adds a candidate.
func (v *View) Add(c Candidate) {
	c.seq = len(v.cands)
	v.cands = append(v.cands, c)
}

// Candidates returns the candidates in fill order, each with its Text.
func (v *View) Candidates() []Candidate {
	out := v.order()
	for i := range out {
		out[i].Text = out[i].text()
	}
	return out
}

// order returns the candidates in fill order, lazy texts not yet made.
func (v *View) order() []Candidate {
	// Indices are sorted, not the candidates (large structs, thousands
	// of them with an index).
	idx := make([]int32, len(v.cands))
	for i := range idx {
		idx[i] = int32(i)
	}
	cs := v.cands
	slices.SortStableFunc(idx, func(i, j int32) int {
		a, b := &cs[i], &cs[j]
		if a.Prio != b.Prio {
			return cmp.Compare(a.Prio, b.Prio)
		}
		if a.Rank != b.Rank {
			return cmp.Compare(a.Rank, b.Rank)
		}
		return cmp.Compare(a.seq, b.seq)
	})
	out := make([]Candidate, len(idx))
	for i, j := range idx {
		out[i] = cs[j]
	}
	return out
}

// commas formats n with thousands separators: 5000 -> "5,000".
func commas(n int) string { return format.Commas(n) }

// plural writes "1 field", "2 fields".
func plural(n int, word string) string { return format.Plural(n, word) }

// listings are the reasons of record-less candidates that list the
// output's own data (its keys, members, an index of its records, a tree's
// nodes, record names), not facts computed over it: a whole output shows
// them itself.
var listings = map[string]bool{
	"row header": true, "the keys": true, "every member": true,
	"index": true, "record names": true, "tree node": true, "pinned list": true,
	"names of a shared value": true, // key/value lines (text_kv.go)
	"entries by name":         true, // key/value lines listed by name (text_kvnames.go)
	"records by value":        true, // names per value (index.go)
	"its other members":       true, // the members of an end's row (json_last.go)
}

// ShellQuote quotes s for a POSIX shell.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Facts returns what the view states about the output as a whole,
// most telling first, each as one line: the heads that are the same
// whichever candidates are chosen (a text's "text: 97 lines; kind:
// table"), then every candidate of a collection that shows no record and
// lists no part of it (profile lines, value counts, ranges and sums, a
// text's counts, templates and column profiles; not the keys of a keyed
// collection, an index or a tree's nodes: see listings), in fill order,
// whatever its priority. A result that keeps the whole output states
// them in its notice (budget's facts notice), so that a larger budget, at
// which the whole output fits, states everything the view at a smaller
// one states: its records are in the output itself, its facts in the
// notice.
func (v *View) Facts() []string { return v.facts(v.order()) }

// Facts returns the facts of v (View.Facts) that this filled view
// states: the heads, and the fact candidates it chose. A result that
// keeps the whole output and states v.Facts() states every one of them.
func (f *Filled) Facts(v *View) []string { return v.facts(f.Chosen) }

// facts are the heads of v's sections that do not depend on the choice,
// then the candidates of cands (in fill order) that are facts.
func (v *View) facts(cands []Candidate) []string {
	var out []string
	one := func(s string) string {
		var parts []string
		for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			if l = strings.TrimSpace(l); l != "" {
				parts = append(parts, strings.TrimSuffix(l, ":"))
			}
		}
		return strings.Join(parts, "; ")
	}
	per := make([][]Candidate, len(v.sections))
	for _, c := range v.cands {
		per[c.Section] = append(per[c.Section], c)
	}
	for i, s := range v.sections {
		if s.Head == nil {
			continue
		}
		if h := s.Head(nil); h != "" && h == s.Head(per[i]) {
			out = append(out, one(h))
		}
	}
	colls := map[string]bool{}
	for _, s := range v.sections {
		if s.Coll != "" {
			colls[s.Coll] = true
		}
	}
	last := ""
	for _, c := range cands {
		// Values outside the collections, and what lists the output's
		// own data, are in the output itself.
		coll := v.sections[c.Section].Coll
		if c.Record < 0 && coll != "" && !listings[c.Reason] {
			// With several collections, each run of one's facts is
			// named.
			if len(colls) > 1 && coll != last {
				out = append(out, "in "+coll+": "+one(c.text()))
			} else {
				out = append(out, one(c.text()))
			}
			last = coll
		}
	}
	return out
}
