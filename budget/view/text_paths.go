package view

import (
	"fmt"
	"sort"
	"strings"
)

// Columns of paths.
//
// A column whose values are paths (a file list of dpkg -L, find, git
// ls-files; the library column of ldconfig -p; the file of a coverage
// profile) is asked about by directory ("how many files are under
// /usr/share/man/man1/?", "which one is elsewhere?"), by extension ("how
// many .go files?") and by depth ("the deepest path"). Counted exactly
// over every row, in the pass that profiles the column:
//
//   - per directory (every prefix of a value that ends at a '/'), the
//     rows under it (the value goes on after it) and the rows right in it;
//     at most maxPathDirs directories, or nothing is stated;
//   - per extension (after the last '.' of the last segment, cut at a ':'
//     and at the first character that is no letter, digit, '_', '+' or '-';
//     it starts with a letter: "0.02s" and "libz.so.1" have none), while at
//     most maxColValues kinds;
//   - per depth (the segments between '/'), the deepest and the longest
//     values.
//
// The view states the directories where the paths split (the largest
// directory with at most maxPathChildren subdirectories is opened first,
// until maxPathNodes are named; a directory under which every path lies
// says nothing and is opened at once), each with its rows; a directory
// of more subdirectories (the 43 languages of /usr/share/locale/) is
// stated with the number of its subdirectories and its rows by the path
// with the subdirectory written '*'. The rows of a directory that holds
// a twentieth or less of the rows of its largest sibling, at most 3, are
// chosen rows ("the only row under /usr/sbin/").
//
// A column is one of paths when 90% of the values that are not empty
// have a '/', a letter and no space, at least 10 of them, and its
// directories hold two rows each or more on average; not when half of
// them start with a host name or a scheme and half have no extension
// (module paths, URLs; the files of a module's zip are paths). Every value with a
// '/' is counted, but one with a version after an '@' (module@v1.2.3).

const (
	maxPathDirs     = 4096 // directories counted per column (more: nothing is stated)
	maxPathNodes    = 20   // directories named in the view
	maxPathChildren = 12   // a directory with more subdirectories is not opened
	maxPathForms    = 8    // forms named under a wide directory
	maxRareDirRows  = 4    // rows chosen for a rare directory, per column
)

// pathStat counts a column's path values.
type pathStat struct {
	rows     int // values counted as paths (see counted)
	strict   int // of those, values that look like paths (see isPath)
	hosted   int // of those, values whose first segment is a host name or a scheme (github.com/…, https://…)
	dirs     map[string]*dirNode
	ext      map[string]int // nil once more than maxColValues kinds
	ext2     map[string]int // rows by a two-part extension (".d.ts", ".tar.gz"), nil once more than maxColValues kinds; stated when it holds half or more, not all, of its extension's rows
	extRows  int
	depth    map[int]int
	deepest  int
	deepRows int
	deepVal  string
	longest  int
	longVal  string
	top      int // values in no directory ("docs/": a directory at the top)
	// names counts the rows by the name of a directory they lie in, at
	// any depth ("fuzz/" of every testdata/fuzz/ directory), nil once
	// more than maxColValues names.
	names map[string]*dirName
	// files counts the rows by their last segment ("copyright" of
	// every package's documentation), nil once more than maxColValues.
	files map[string]int
	// ends counts the rows by the end of their file's name (fileEnd:
	// "_test.go" of "conn_test.go:12:1"), nil once more than
	// maxColValues; endRows rows have one.
	ends    map[string]int
	endRows int
	// shallow keeps, per depth, the first maxShallowRows+1 rows of that
	// depth (text_shallow.go)
	shallow map[int][]posLine
	// laid out once (shownDirs)
	laid  bool
	tops  []*dirNode
	named []*dirNode
}

// dirNode is one directory: rows under it, rows right in it (no
// directory between), its first row.
type dirNode struct {
	path   string
	under  int
	direct int
	first  posLine
	kids   []*dirNode
	wide   bool // more than maxPathChildren subdirectories: not opened
	parent *dirNode
}

// dirName is one name of directories: its rows, the first directory
// of that name, whether there are others, and the name of their parent
// while they all share one ("testdata" of every "fuzz").
type dirName struct {
	rows    int
	first   string
	many    bool
	parent  string
	parents bool // the parents' names differ
}

func newPathStat() *pathStat {
	return &pathStat{dirs: map[string]*dirNode{}, ext: map[string]int{}, depth: map[int]int{}, names: map[string]*dirName{}, files: map[string]int{},
		shallow: map[int][]posLine{}, ext2: map[string]int{}, ends: map[string]int{}}
}

// addNames counts the row of value v (the part up to its last '/' is its
// directory) by the names of the directories it lies in, each once.
func (ps *pathStat) addNames(dir string) {
	var seenBuf [16]string
	seen := seenBuf[:0]
	start, prev := 0, ""
	for i := 0; i < len(dir); i++ {
		if dir[i] != '/' {
			continue
		}
		seg := dir[start:i]
		whole := dir[:i+1]
		start = i + 1
		if seg == "" || seg == "." || seg == ".." {
			prev = seg
			continue
		}
		dup := false
		for _, x := range seen {
			if x == seg {
				dup = true // counted at its first place in this path
				break
			}
		}
		if dup {
			prev = seg
			continue
		}
		seen = append(seen, seg)
		dn := ps.names[seg]
		if dn == nil {
			if len(ps.names) >= maxColValues {
				ps.names = nil
				return
			}
			dn = &dirName{first: whole, parent: prev}
			ps.names[seg] = dn
		}
		dn.rows++
		if whole != dn.first {
			dn.many = true
		}
		if prev != dn.parent {
			dn.parents = true
		}
		prev = seg
	}
}

// isPath reports whether v looks like a path, for the choice of a
// column of paths: counted, a letter, no space.
func isPath(v string) bool {
	return strings.IndexAny(v, " \t") < 0 && hasLetter(v) && counted(v)
}

// counted reports whether v is counted as a path (it may have a space:
// "Some File.txt"): a '/', and no version after an '@'.
func counted(v string) bool {
	if strings.IndexByte(v, '/') < 0 {
		return false
	}
	// A version after an '@' (module@v1.2.3, pkg@1.0.0) makes a name
	// of a module, not of a file ("@types/", "icon@2x.png" are files).
	for i := 1; i < len(v)-1; i++ {
		if v[i] != '@' || v[i-1] == '/' {
			continue
		}
		j := i + 1
		if v[j] == 'v' {
			j++
		}
		k := j
		for k < len(v) && isDigitByte(v[k]) {
			k++
		}
		if k > j && k+1 < len(v) && v[k] == '.' && isDigitByte(v[k+1]) && strings.IndexByte(v[i:], '/') < 0 {
			return false // (a module@v1.2.3/ directory holds files)
		}
	}
	return true
}

// pathExt2 is v's extension of two parts (".d.ts" of "index.d.ts",
// ".tar.gz", ".js.map"): its extension e and the part before it, of one
// to five letters or digits starting with a letter, after a name of its
// own; "" when there is none.
func pathExt2(v, e string) string {
	seg := v[strings.LastIndexByte(v, '/')+1:]
	if i := strings.IndexByte(seg, ':'); i >= 0 {
		seg = seg[:i]
	}
	rest := strings.TrimSuffix(seg, e)
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || len(rest)-i-1 > 5 || len(rest)-i-1 < 1 {
		return ""
	}
	p := rest[i+1:]
	if c := p[0] | 0x20; c < 'a' || c > 'z' {
		return ""
	}
	for j := 0; j < len(p); j++ {
		if !isAlnumByte(p[j]) {
			return ""
		}
	}
	return "." + p + e
}

// pathExt is v's extension (see the top of this file), with its dot, or "".
func pathExt(v string) string {
	seg := v[strings.LastIndexByte(v, '/')+1:]
	if i := strings.IndexByte(seg, ':'); i >= 0 {
		seg = seg[:i]
	}
	i := strings.LastIndexByte(seg, '.')
	if i <= 0 || i == len(seg)-1 {
		return ""
	}
	e := seg[i+1:]
	if c := e[0] | 0x20; c < 'a' || c > 'z' {
		return ""
	}
	for j := 0; j < len(e); j++ {
		if !isAlnumByte(e[j]) && e[j] != '_' && e[j] != '+' && e[j] != '-' {
			return ""
		}
	}
	if len(e) > 12 {
		return ""
	}
	return "." + e
}

// pathDepth is the number of segments of v between '/' (empty ones not
// counted).
func pathDepth(v string) int {
	n := 0
	for i := 0; i < len(v); i++ {
		if v[i] != '/' && (i == 0 || v[i-1] == '/') {
			n++ // a segment starts
		}
	}
	return n
}

// add counts value v of row l.
func (ps *pathStat) add(l posLine, v string) {
	if i := strings.Index(v, " -> "); i > 0 {
		v = v[:i] // a link's own path (ls -l, tar -tv: "name -> target")
	}
	if !counted(v) {
		return
	}
	ps.rows++
	if isPath(v) {
		ps.strict++
	}
	if i := strings.IndexByte(v, '/'); i > 0 && (strings.IndexByte(v[:i], '.') > 0 || v[i-1] == ':') {
		ps.hosted++
	}
	last := strings.LastIndexByte(v, '/')
	if strings.IndexByte(v[:last], '/') < 0 && last == len(v)-1 {
		ps.top++
	}
	if ps.dirs != nil {
		for i := 0; i < len(v); i++ {
			if v[i] != '/' || i == len(v)-1 {
				continue // a value ending in '/' is that directory, not under it
			}
			d := v[:i+1]
			n := ps.dirs[d]
			if n == nil {
				if len(ps.dirs) >= maxPathDirs {
					ps.dirs = nil
					break
				}
				n = &dirNode{path: d, first: l}
				ps.dirs[d] = n
			}
			n.under++
			if i == last || last == len(v)-1 && i == strings.LastIndexByte(v[:last], '/') {
				n.direct++
			}
		}
	}
	if ps.names != nil {
		end := last
		if last == len(v)-1 {
			end = strings.LastIndexByte(v[:last], '/') // a directory lies in its parent
		}
		if end >= 0 {
			ps.addNames(v[:end+1])
		}
	}
	if ps.files != nil && last < len(v)-1 {
		f := v[last+1:]
		if !countUpTo(ps.files, f, maxColValues) {
			ps.files = nil
		}
	}
	if e := fileEnd(v[last+1:]); e != "" {
		ps.endRows++
		if ps.ends != nil && !countUpTo(ps.ends, e, maxColValues) {
			ps.ends = nil
		}
	}
	if e := pathExt(v); e != "" {
		ps.extRows++
		if ps.ext != nil {
			if !countUpTo(ps.ext, e, maxColValues) {
				ps.ext = nil
			}
		}
		if e2 := pathExt2(v, e); e2 != "" && ps.ext2 != nil {
			if !countUpTo(ps.ext2, e2, maxColValues) {
				ps.ext2 = nil
			}
		}
	}
	d := pathDepth(v)
	ps.depth[d]++
	if d <= maxShallowDepth && len(ps.shallow[d]) <= maxShallowRows {
		ps.shallow[d] = append(ps.shallow[d], posLine{l.pos, strings.Clone(l.text)})
	}
	switch {
	case d > ps.deepest:
		ps.deepest, ps.deepRows, ps.deepVal = d, 1, v
	case d == ps.deepest:
		ps.deepRows++
	}
	if len(v) > ps.longest {
		ps.longest, ps.longVal = len(v), v
	}
}

// pathsOf is the column's path counts when it is a column of paths, or
// nil.
func (c *colStat) pathsOf() *pathStat {
	ps := c.paths
	if ps == nil || ps.strict < 10 || 10*ps.strict < 9*(c.rows-c.empty) || 2*ps.hosted > ps.rows && 2*ps.extRows < ps.rows {
		// (module paths and URLs, github.com/… and https://…, are
		// counted by their starts: text_columns.go's partsLines)
		return nil
	}
	if ps.dirs != nil {
		// Directories hold several rows each (names like
		// "adduser/oldstable,now" of apt list have one each).
		parents := 0
		for _, n := range ps.dirs {
			if n.direct > 0 {
				parents++
			}
		}
		if 2*parents > ps.rows {
			return nil
		}
	}
	return ps
}

// tree links the directories to their parents and children and returns
// the top ones (no parent directory), sorted by path.
func (ps *pathStat) tree() []*dirNode {
	var tops []*dirNode
	for d, n := range ps.dirs {
		n.kids = n.kids[:0]
		j := strings.LastIndexByte(d[:len(d)-1], '/')
		if j < 0 {
			n.parent = nil
			tops = append(tops, n)
			continue
		}
		p := ps.dirs[d[:j+1]]
		n.parent = p
		if p == nil {
			tops = append(tops, n)
		}
	}
	for _, n := range ps.dirs {
		if n.parent != nil {
			n.parent.kids = append(n.parent.kids, n)
		}
	}
	for _, n := range ps.dirs {
		sort.Slice(n.kids, func(i, j int) bool { return n.kids[i].path < n.kids[j].path })
	}
	sort.Slice(tops, func(i, j int) bool { return tops[i].path < tops[j].path })
	return tops
}

// shownDirs are the directories the view names, in path order: opened
// from the largest (see the top of this file).
func (ps *pathStat) shownDirs() []*dirNode {
	if ps.laid {
		return ps.named
	}
	ps.laid = true
	if len(ps.dirs) == 0 {
		return nil
	}
	tops := ps.tree()
	ps.tops = tops
	shown := map[*dirNode]bool{}
	opened := map[*dirNode]bool{}
	var open func(n *dirNode, most int)
	var named []*dirNode
	name := func(n *dirNode) {
		if n.under == ps.rows && len(n.kids) > 0 && len(n.kids) <= 2*maxPathChildren {
			open(n, 2*maxPathChildren) // every path lies under it: it says nothing
			return
		}
		for len(n.kids) == 1 && n.direct == 0 {
			n = n.kids[0] // one subdirectory and nothing else: name that
		}
		if !shown[n] {
			shown[n] = true
			named = append(named, n)
		}
	}
	open = func(n *dirNode, most int) {
		opened[n] = true
		if len(n.kids) > most {
			n.wide = true
			return
		}
		for _, k := range n.kids {
			name(k)
		}
	}
	for _, t := range tops {
		name(t)
	}
	for len(named) < maxPathNodes {
		var best *dirNode
		for _, n := range named {
			if opened[n] || len(n.kids) == 0 || 50*n.under < ps.rows {
				continue
			}
			if best == nil || n.under > best.under {
				best = n
			}
		}
		if best == nil {
			break
		}
		if len(best.kids) > maxPathChildren || len(named)+len(best.kids) <= maxPathNodes+4 {
			open(best, maxPathChildren)
		} else {
			opened[best] = true // no room for its subdirectories
		}
	}
	sort.Slice(named, func(i, j int) bool { return named[i].path < named[j].path })
	ps.named = named
	return named
}

// pathLines are the column's lines of directories, forms under wide
// directories, extensions and depth; nil when it is no column of paths.
// values are the column's values with their counts (nil when not all
// were counted): a directory's own row ("/usr/bin" beside
// "/usr/bin/ls") and the forms under a wide directory need them.
func (c *colStat) pathLines() []string {
	first, more := c.pathLinesBy()
	return append(first, more...)
}

// pathLinesBy are the column's lines of paths in two lists: first the
// directories, extensions and depths (shown with the column's profile),
// then the wide directories, the names of directories at any depth and
// the names after the last / (shown with the column's other groups).
func (c *colStat) pathLinesBy() (first, more []string) {
	ps := c.pathsOf()
	if ps == nil {
		return nil, nil
	}
	var out []string
	if named := ps.shownDirs(); len(named) > 1 || len(named) == 1 && named[0].wide {
		var parts []string
		var wide []*dirNode
		for _, n := range named {
			s := fmt.Sprintf("%q %s", n.path, commas(n.under))
			var notes []string
			if self := c.ownRows(n); self > 0 {
				notes = append(notes, fmt.Sprintf("%s with itself", commas(n.under+self)))
			}
			if n.direct > 0 && n.direct < n.under {
				notes = append(notes, fmt.Sprintf("%s right in it", commas(n.direct)))
			}
			if n.wide {
				notes = append(notes, fmt.Sprintf("%s subdirectories", commas(len(n.kids))))
				wide = append(wide, n)
			}
			if len(notes) > 0 {
				s += " (" + strings.Join(notes, ", ") + ")"
			}
			parts = append(parts, s)
		}
		line := fmt.Sprintf("  %s, rows by directory (rows under each; directories nest): %s", c.name, strings.Join(parts, ", "))
		if ps.top > 0 {
			line += fmt.Sprintf("; %s rows in no directory", commas(ps.top))
		}
		if rest := c.rows - ps.rows; rest > 0 {
			line += fmt.Sprintf("; %s other rows (no /)", commas(rest))
		}
		out = append(out, line)
		for i, w := range wide {
			if i == 3 {
				break // the three widest named first in path order are enough
			}
			if l := c.wideForms(w); l != "" {
				more = append(more, l)
			}
		}
	}
	if l := c.dirNamesLine(); l != "" {
		more = append(more, l)
	}
	if ps.files != nil {
		fs, _ := byCount(ps.files)
		var parts []string
		rows := 0
		for _, x := range fs {
			if x.n < 2 || len(parts) == shownColValues {
				break
			}
			parts = append(parts, fmt.Sprintf("%q %s", cut(x.k, 80), commas(x.n)))
			rows += x.n
		}
		if len(parts) > 0 {
			more = append(more, fmt.Sprintf("  %s, rows by the name after the last / (names of more than one row): %s", c.name, strings.Join(parts, ", ")))
		}
	}
	if l, wide := c.endsLine(); wide {
		out = append(out, l) // an end a tenth of the rows have ("_test.go")
	}
	if ps.ext != nil && ps.extRows >= 3 && len(ps.ext) >= 2 {
		vs, _ := byCount(ps.ext)
		var parts []string
		shown := 0
		for i, x := range vs {
			if i == 16 {
				break
			}
			parts = append(parts, fmt.Sprintf("%q %s", x.k, commas(x.n)))
			shown += x.n
		}
		line := fmt.Sprintf("  %s, rows by extension (after the last . of the last segment): %s", c.name, strings.Join(parts, ", "))
		if rest := ps.extRows - shown; rest > 0 {
			line += fmt.Sprintf("; %s other extensions in %s rows", commas(len(vs)-16), commas(rest))
		}
		out = append(out, line+fmt.Sprintf("; %s rows without one", commas(c.rows-ps.extRows)))
		if ps.ext2 != nil {
			// extensions of two parts, of more than one row each
			vs, _ := byCount(ps.ext2)
			var two []string
			for _, x := range vs {
				if len(two) == 8 || x.n < 2 {
					break
				}
				// It splits its extension's rows: half of them or more,
				// not all (".d.ts" 1,233 of ".ts" 1,330; not ".js.flow"
				// 833 of ".flow" 833, nor ".txt.gz" 66 of ".gz" 1,635).
				last := x.k[strings.LastIndexByte(x.k, '.'):]
				if all, known := ps.ext[last]; known && 2*x.n >= all && x.n < all {
					two = append(two, fmt.Sprintf("%q %s of %q %s", x.k, commas(x.n), last, commas(all)))
				}
			}
			if len(two) > 0 {
				more = append(more, fmt.Sprintf("  %s, rows by their last two extensions (\".d.ts\" of \"index.d.ts\"; those that hold half or more, not all, of the rows of their last one): %s", c.name, strings.Join(two, ", ")))
			}
		}
	}
	var ds []string
	for d := 0; d <= ps.deepest; d++ {
		if n := ps.depth[d]; n > 0 {
			ds = append(ds, fmt.Sprintf("%d: %s", d, commas(n)))
		}
	}
	deep := fmt.Sprintf("deepest %d segments (%s rows, the first %q)", ps.deepest, commas(ps.deepRows), cut(ps.deepVal, 200))
	if ps.deepRows == 1 {
		deep = fmt.Sprintf("deepest %d segments (%q)", ps.deepest, cut(ps.deepVal, 200))
	}
	if len(ds) < 2 {
		return out, more // one depth says nothing
	}
	out = append(out, fmt.Sprintf("  %s, rows by path depth (segments between /): %s; %s; longest %d characters (%q)",
		c.name, strings.Join(ds, ", "), deep, ps.longest, cut(ps.longVal, 200)))
	return out, more
}

// ownRows is how many rows are directory n itself ("/usr/bin" or
// "/usr/bin/" beside "/usr/bin/ls"), or 0 when the values were not all
// counted.
func (c *colStat) ownRows(n *dirNode) int {
	if c.overflow || c.values == nil {
		return 0
	}
	return c.values[n.path] + c.values[strings.TrimSuffix(n.path, "/")]
}

// wideForms is the line of the rows under wide directory w by their path
// with the subdirectory right under w written '*', or "" when the values
// were not all counted.
func (c *colStat) wideForms(w *dirNode) string {
	forms := map[string]int{}
	for v, n := range c.values { // nil when not all were counted: no forms
		if !strings.HasPrefix(v, w.path) || len(v) == len(w.path) {
			continue
		}
		rel := v[len(w.path):]
		f := w.path + "*"
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			f += rel[i:]
		}
		forms[f] += n
	}
	var big []string
	kids := append([]*dirNode(nil), w.kids...)
	sort.SliceStable(kids, func(i, j int) bool { return kids[i].under > kids[j].under })
	for i, k := range kids {
		if i == maxPathForms {
			break
		}
		big = append(big, fmt.Sprintf("%q %s", k.path, commas(k.under)))
	}
	s := fmt.Sprintf("  %s, the %s rows under %q (%s subdirectories); the subdirectories with the most rows under them: %s",
		c.name, commas(w.under), w.path, commas(len(w.kids)), strings.Join(big, ", "))
	if c.overflow || len(forms) == 0 {
		return s
	}
	fs, _ := byCount(forms)
	var parts []string
	for i, x := range fs {
		if i == maxPathForms {
			parts = append(parts, fmt.Sprintf("%s other forms", commas(len(fs)-i)))
			break
		}
		parts = append(parts, fmt.Sprintf("%q %s", cut(x.k, 120), commas(x.n)))
	}
	return s + "; by their path with the subdirectory written *: " + strings.Join(parts, ", ")
}

// rareDirRows are the directories the view names whose rows are few
// beside another's (at most 3 rows, a twentieth or less of the largest
// named directory that neither holds it nor lies in it), for their first
// row: the one library under /usr/lib/… beside 604 under /lib/….
func (c *colStat) rareDirRows() []*dirNode {
	ps := c.pathsOf()
	if ps == nil {
		return nil
	}
	named := ps.shownDirs()
	var out []*dirNode
	for _, n := range named {
		most := 0
		for _, m := range named {
			if !strings.HasPrefix(n.path, m.path) && !strings.HasPrefix(m.path, n.path) {
				most = max(most, m.under)
			}
		}
		if n.under <= 3 && 20*n.under <= most {
			out = append(out, n)
			if len(out) == maxRareDirRows {
				break
			}
		}
	}
	return out
}

// dirNamesLine is the line of rows by the name of a directory they lie
// in, at any depth, for the names of more than one directory (the others
// are in the line of directories), the most rows first; "" when there
// are none. A name whose directories all have a parent of one name is
// written with it ("testdata/fuzz/").
func (c *colStat) dirNamesLine() string {
	ps := c.paths
	if ps.names == nil {
		return ""
	}
	type nr struct {
		k string
		d *dirName
	}
	var ns []nr
	for k, d := range ps.names {
		if d.many && d.rows >= 2 {
			ns = append(ns, nr{k, d})
		}
	}
	if len(ns) == 0 {
		return ""
	}
	sort.Slice(ns, func(i, j int) bool {
		if ns[i].d.rows != ns[j].d.rows {
			return ns[i].d.rows > ns[j].d.rows
		}
		return ns[i].k < ns[j].k
	})
	var parts []string
	for i, x := range ns {
		if i == shownColValues {
			parts = append(parts, fmt.Sprintf("%s other names", commas(len(ns)-i)))
			break
		}
		name := x.k + "/"
		if !x.d.parents && x.d.parent != "" {
			name = x.d.parent + "/" + name
		}
		parts = append(parts, fmt.Sprintf("%q %s", name, commas(x.d.rows)))
	}
	return fmt.Sprintf("  %s, rows by the name of a directory they lie in, at any depth (names of more than one directory): %s", c.name, strings.Join(parts, ", "))
}

// fileEnd is the end of a file's name f (the last segment of a path; a
// location after it, ":12:1", cut) that its rows are grouped by: from
// its last '_' or '-' followed by a letter, with its extension ("_test.go"
// of "conn_test.go", "-linux.h"), at most 24 bytes; "" when there is
// none.
func fileEnd(f string) string {
	if i := strings.IndexByte(f, ':'); i >= 0 {
		f = f[:i]
	}
	i := strings.LastIndexAny(f, "_-")
	if i <= 0 || len(f)-i > 24 || len(f)-i < 3 || strings.IndexByte(f, ' ') >= 0 {
		return ""
	}
	if c := f[i+1] | 0x20; c < 'a' || c > 'z' {
		return "" // "x86_64", "foo-1.2": no suffix
	}
	return f[i:]
}

// endsLine is the line of a column of paths' rows by the end of their
// file's name (fileEnd), when some end is shared: "_test.go" 4,041 of
// go's files; "" when no end holds 3 rows or more, or when the ends are
// all distinct. wide reports that the most frequent end is in a tenth
// of the rows or more.
func (c *colStat) endsLine() (line string, wide bool) {
	ps := c.pathsOf()
	if ps == nil || ps.ends == nil || len(ps.ends) == 0 {
		return "", false
	}
	vs, _ := byCount(ps.ends)
	if vs[0].n < 3 || len(vs) == ps.endRows {
		return "", false
	}
	var parts []string
	shown := 0
	for _, x := range vs {
		if len(parts) == shownColValues || x.n < 2 {
			break
		}
		parts = append(parts, fmt.Sprintf("%q %s", cut(x.k, 40), commas(x.n)))
		shown += x.n
	}
	line = fmt.Sprintf("  %s, rows by the end of the file's name (from its last _ or -): %s", c.name, strings.Join(parts, ", "))
	if rest := ps.endRows - shown; rest > 0 {
		line += fmt.Sprintf("; %s other rows with one", commas(rest))
	}
	return line + fmt.Sprintf("; %s rows without one", commas(c.rows-ps.endRows)), 10*vs[0].n >= c.rows
}
