package view

import "sort"

// The error and warning lines a view shows first are picked like rows,
// not only the latest: with more distinct lines than the first rounds
// show (clang-tidy's 174 warnings, the latest 20 all of its last file),
// the first is the latest line of each diagnostic code, rarest code
// first (the one complex function, the one magic number), then the
// latest of each file not yet picked, then the rest, latest first.

// spreadNotables reorders list (latest first) so that each diagnostic
// code and each file leads with one line; a list with fewer than two
// codes and two files stays as it is.
func spreadNotables(list []*notable) []*notable {
	if len(list) < 4 {
		return list
	}
	codes := make([]string, len(list))
	files := make([]string, len(list))
	nCode, nFile := map[string]int{}, map[string]int{}
	for i, nb := range list {
		file, _, msg, ok := location(nb.text)
		if !ok {
			continue
		}
		files[i] = file
		nFile[file]++
		if c := diagCode(msg); c != "" {
			codes[i] = c
			nCode[c]++
		}
	}
	if len(nCode) < 2 && len(nFile) < 2 {
		return list
	}
	out := make([]*notable, 0, len(list))
	taken := make([]bool, len(list))
	take := func(i int) {
		taken[i] = true
		out = append(out, list[i])
	}
	// One line of each code, rarest code first (ties: the latest line).
	var firsts []int
	seen := map[string]bool{}
	for i, c := range codes {
		if c != "" && !seen[c] {
			seen[c] = true
			firsts = append(firsts, i)
		}
	}
	sort.SliceStable(firsts, func(a, b int) bool { return nCode[codes[firsts[a]]] < nCode[codes[firsts[b]]] })
	for _, i := range firsts {
		take(i)
	}
	// Then one of each file not yet picked.
	had := map[string]bool{}
	for i := range list {
		if taken[i] {
			had[files[i]] = true
		}
	}
	for i, f := range files {
		if f != "" && !had[f] && !taken[i] {
			had[f] = true
			take(i)
		}
	}
	for i := range list {
		if !taken[i] {
			take(i)
		}
	}
	return out
}
