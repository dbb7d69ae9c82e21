package view

import "strings"

// Sibling lists: a document that is one object whose members are all
// lists of records of one kind (radon cc -j: each file's path -> its
// blocks, 17 files of 6 to 75 blocks; flake8's JSON: each file -> its
// findings) is a map of name -> list of records. Level 1 finds each
// list as a collection of its own; as such, each got a section with
// its own profile, and 17 profiles took the whole budget: no block was
// shown at any budget, and "what is the complexity of parse_node" was
// never answered from the view. Read as one map, its records are one
// collection, each with its list's key as a member (keyedEntriesOf,
// the form of npm outdated's entries), with one profile, rows and an
// index of every block by name; each list's own count is stated on a
// line of its own first (addFolded's lines).

// minSiblingLists is the fewest member lists of the root for them to be
// read as one map.
const minSiblingLists = 4

// siblingLists returns, when the input is one JSON object every member
// of which is a list of objects (empty lists allowed) and at least
// minSiblingLists of them are collections, the indexes of those
// collections, the root as a map collection and what keyedEntriesOf
// read of it; ok is false otherwise.
func siblingLists(in Input) (group []int, root Collection, k keyedItems, ok bool) {
	if in.Format != "json" {
		return nil, root, k, false
	}
	for ci, c := range in.Collections {
		if c.Kind != "array" || c.Path == "." || strings.Contains(c.Path, "[") || len(pathSegments(strings.TrimPrefix(c.Path, "."))) != 1 {
			continue
		}
		group = append(group, ci)
	}
	if len(group) < minSiblingLists {
		return nil, root, k, false
	}
	for _, ci := range group {
		for _, o := range in.Collections {
			if p := in.Collections[ci].Path; strings.HasPrefix(o.Path, p+".") || strings.HasPrefix(o.Path, p+"[") {
				// A list holding a collection of its own keeps its
				// section (fold.go folds the others around it).
				return nil, root, k, false
			}
		}
	}
	s := jscan{d: in.Data}
	s.ws()
	if s.peek() != '{' {
		return nil, root, k, false
	}
	start := s.pos
	s.skipValue()
	text := in.Data[start:s.pos]
	n := 0
	t := jscan{d: text}
	t.eachMember(func(string) { n++ })
	root = Collection{Path: ".", Kind: "map", Count: n, Text: text, RecordLists: true}
	k, ok = keyedEntriesOf(in, root, true)
	if !ok || k.objects > 0 {
		return nil, root, k, false
	}
	return group, root, k, true
}
