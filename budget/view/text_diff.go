package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Unified diffs (git diff, git show, diff -u) read as files and hunks.
// A file starts at "diff --git a/X b/Y" (or, in a plain diff -u, at a
// "--- X" line followed by "+++ Y" outside a hunk); its header lines say
// whether it is new, deleted, renamed (rename from/to), a mode change or
// binary; each "@@ -a,b +c,d @@" starts a hunk whose b old and d new
// lines follow (' ' both, '-' old, '+' new, '\' no newline). Counted
// exactly over every line: files, hunks, added and deleted lines per
// file and in all, files by status and by extension, the file with the
// most changed lines and the one with the most hunks. Memory: at most
// maxDiffFiles files are kept by name (the rest are counted).

const maxDiffFiles = 5000

// diffFile is one file of a diff.
type diffFile struct {
	name           string
	from           string // a renamed file's old name
	pos            int    // its first line
	status         string // "new", "deleted", "renamed", "mode", "binary", or "" (modified)
	added, deleted int
	hunks          int
	binary         bool // "Binary files ... differ"
}

// diffStats counts a diff.
type diffStats struct {
	files                  []*diffFile
	filesMore              int // files past maxDiffFiles
	binaries               int // binary files (any status)
	nFiles                 int
	hunks, added, deleted  int
	byStatus               map[string]int
	byExt                  map[string]int
	cur                    *diffFile
	oldLeft, newLeft       int  // lines left in the current hunk
	pendingMinus           bool // the last line was "--- X" outside a hunk (diff -u)
	pendingPos             int
	pendingName            string
	most, mostHunks        *diffFile // the first file with the most changed lines, hunks
	mostChanged, mostHunkN int
	mostTies, hunkTies     []string // the files with as many (at most maxTies), counted in mostN, hunkN
	mostN, hunkN           int
}

// maxTies bounds the files named as holding a maximum.
const maxTies = 5

// tie notes a file at a running maximum: a new maximum restarts the list.
func tie(names []string, n *int, name string, better bool) []string {
	if better {
		names, *n = names[:0], 0
	}
	*n++
	if len(names) < maxTies {
		names = append(names, name)
	}
	return names
}

func newDiffStats() *diffStats {
	return &diffStats{byStatus: map[string]int{}, byExt: map[string]int{}}
}

// isDiffLine reports whether a line is part of a unified diff's
// structure or content (for the detection of the kind); header tells
// whether it is a file or hunk header.
func isDiffLine(line string) (diff, header bool) {
	if line == "" {
		return false, false
	}
	switch {
	case strings.HasPrefix(line, "diff --git "), strings.HasPrefix(line, "@@ -"):
		return true, true
	case strings.HasPrefix(line, "index "), strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "+++ "),
		strings.HasPrefix(line, "new file mode "), strings.HasPrefix(line, "deleted file mode "),
		strings.HasPrefix(line, "old mode "), strings.HasPrefix(line, "new mode "),
		strings.HasPrefix(line, "similarity index "), strings.HasPrefix(line, "rename from "),
		strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "Binary files "),
		strings.HasPrefix(line, "\\ No newline"):
		return true, false
	}
	switch line[0] {
	case ' ', '+', '-':
		return true, false
	}
	return false, false
}

// hunkCounts parses "@@ -a,b +c,d @@ ...": b and d (1 when omitted).
func hunkCounts(line string) (int, int, bool) {
	rest := strings.TrimPrefix(line, "@@ -")
	end := strings.Index(rest, " @@")
	if end < 0 {
		return 0, 0, false
	}
	f := strings.Fields(rest[:end])
	if len(f) != 2 || !strings.HasPrefix(f[1], "+") {
		return 0, 0, false
	}
	count := func(s string) (int, bool) {
		if i := strings.IndexByte(s, ','); i >= 0 {
			n, err := strconv.Atoi(s[i+1:])
			return n, err == nil
		}
		_, err := strconv.Atoi(s)
		return 1, err == nil
	}
	o, ok1 := count(f[0])
	n, ok2 := count(f[1][1:])
	return o, n, ok1 && ok2
}

// startFile begins a file named name at line pos.
func (ds *diffStats) startFile(name string, pos int) {
	ds.finishFile()
	ds.nFiles++
	ds.cur = &diffFile{name: name, pos: pos}
}

// finishFile counts the current file.
func (ds *diffStats) finishFile() {
	f := ds.cur
	if f == nil {
		return
	}
	ds.cur = nil
	st := f.status
	if st == "" {
		st = "modified"
	}
	ds.byStatus[st]++
	ext := extension(f.name[strings.LastIndexByte(f.name, '/')+1:])
	if ext == "" {
		ext = "(none)"
	}
	if _, ok := ds.byExt[ext]; ok || len(ds.byExt) < maxLeadWords {
		ds.byExt[ext]++
	}
	if ch := f.added + f.deleted; ds.most == nil || ch >= ds.mostChanged {
		better := ds.most == nil || ch > ds.mostChanged
		if better {
			ds.most, ds.mostChanged = f, ch
		}
		ds.mostTies = tie(ds.mostTies, &ds.mostN, f.name, better)
	}
	if ds.mostHunks == nil || f.hunks >= ds.mostHunkN {
		better := ds.mostHunks == nil || f.hunks > ds.mostHunkN
		if better {
			ds.mostHunks, ds.mostHunkN = f, f.hunks
		}
		ds.hunkTies = tie(ds.hunkTies, &ds.hunkN, f.name, better)
	}
	if len(ds.files) < maxDiffFiles {
		ds.files = append(ds.files, f)
	} else {
		ds.filesMore++
	}
}

// gitPath is the path of "a/x" or "b/x" (quotes removed).
func gitPath(s string) string {
	s = strings.Trim(s, "\"")
	if len(s) > 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/' {
		return s[2:]
	}
	return s
}

// add counts one line.
func (ds *diffStats) add(pos int, line string) {
	if ds.oldLeft > 0 || ds.newLeft > 0 {
		// Inside a hunk: its lines are content, whatever they start with.
		f := ds.cur
		switch {
		case strings.HasPrefix(line, "+"):
			ds.newLeft--
			f.added++
			ds.added++
			return
		case strings.HasPrefix(line, "-"):
			ds.oldLeft--
			f.deleted++
			ds.deleted++
			return
		case strings.HasPrefix(line, " ") || line == "":
			ds.oldLeft--
			ds.newLeft--
			return
		case strings.HasPrefix(line, "\\"):
			return
		}
		ds.oldLeft, ds.newLeft = 0, 0 // a hunk cut short: read the line as a header
	}
	if strings.HasPrefix(line, "\\") {
		return // "\ No newline at end of file" after a hunk's last line
	}
	if ds.pendingMinus {
		ds.pendingMinus = false
		if strings.HasPrefix(line, "+++ ") {
			if ds.cur == nil || ds.cur.hunks > 0 {
				// diff -u: "--- X" and "+++ Y" start a file (git's
				// start at "diff --git", before them).
				from := gitPath(strings.SplitN(ds.pendingName, "\t", 2)[0])
				to := gitPath(strings.SplitN(line[4:], "\t", 2)[0])
				name := to
				if to == "/dev/null" {
					name = from
				}
				ds.startFile(name, ds.pendingPos)
				switch {
				case from == "/dev/null":
					ds.cur.status = "new"
				case to == "/dev/null":
					ds.cur.status = "deleted"
				}
			}
			return
		}
	}
	switch {
	case strings.HasPrefix(line, "diff --git "):
		f := strings.Fields(line[len("diff --git "):])
		name := ""
		if len(f) >= 2 {
			name = gitPath(f[len(f)-1])
		}
		ds.startFile(name, pos)
	case strings.HasPrefix(line, "--- "):
		ds.pendingMinus, ds.pendingPos, ds.pendingName = true, pos, line[4:]
	case strings.HasPrefix(line, "@@ -"):
		if o, n, ok := hunkCounts(line); ok && ds.cur != nil {
			ds.hunks++
			ds.cur.hunks++
			ds.oldLeft, ds.newLeft = o, n
		}
	case ds.cur == nil:
	case strings.HasPrefix(line, "new file mode "):
		ds.cur.status = "new"
	case strings.HasPrefix(line, "deleted file mode "):
		ds.cur.status = "deleted"
	case strings.HasPrefix(line, "rename from "):
		ds.cur.status, ds.cur.from = "renamed", line[len("rename from "):]
	case strings.HasPrefix(line, "new mode ") && ds.cur.status == "":
		ds.cur.status = "mode"
	case strings.HasPrefix(line, "Binary files "), strings.HasPrefix(line, "GIT binary patch"):
		if !ds.cur.binary {
			ds.cur.binary = true
			ds.binaries++
		}
	}
}

// done ends the last file.
func (ds *diffStats) done() { ds.finishFile() }

// facts are the diff's totals.
func (ds *diffStats) facts() []string {
	var out []string
	out = append(out, fmt.Sprintf("files changed: %s; hunks: %s; lines added: %s; lines deleted: %s (lines of the hunks, exact)",
		commas(ds.nFiles), commas(ds.hunks), commas(ds.added), commas(ds.deleted)))
	var parts []string
	for _, st := range []string{"modified", "new", "deleted", "renamed", "mode"} {
		if n := ds.byStatus[st]; n > 0 {
			w := st
			if st == "mode" {
				w = "mode changed only"
			}
			parts = append(parts, fmt.Sprintf("%s %s", w, commas(n)))
		}
	}
	s := "files by status: " + strings.Join(parts, ", ")
	if ds.binaries > 0 {
		s += fmt.Sprintf("; binary files (any status): %s", commas(ds.binaries))
	}
	out = append(out, s)
	if len(ds.byExt) > 1 {
		es, _ := byCount(ds.byExt)
		var ps []string
		for i, x := range es {
			if i == 16 {
				ps = append(ps, fmt.Sprintf("%s other extensions", commas(len(es)-16)))
				break
			}
			ps = append(ps, fmt.Sprintf("%s %s", x.k, commas(x.n)))
		}
		out = append(out, "files by extension: "+strings.Join(ps, ", "))
	}
	if ds.most != nil && ds.nFiles > 1 {
		names := func(ns []string, n int) string {
			s := strings.Join(ns, ", ")
			if n > len(ns) {
				s += fmt.Sprintf(" and %s more", commas(n-len(ns)))
			}
			return s
		}
		s := fmt.Sprintf("most changed lines: %s (+%s -%s)", ds.most.name, commas(ds.most.added), commas(ds.most.deleted))
		if ds.mostN > 1 {
			s = fmt.Sprintf("most changed lines: %s each, in %s", commas(ds.mostChanged), names(ds.mostTies, ds.mostN))
		}
		s += fmt.Sprintf("; most hunks: %s, in %s", commas(ds.mostHunkN), names(ds.hunkTies, ds.hunkN))
		out = append(out, s)
	}
	return out
}

// line is a file as the view lists it.
func (f *diffFile) line() string {
	s := fmt.Sprintf("  %d\t%s: +%s -%s, %s hunks", f.pos, f.name, commas(f.added), commas(f.deleted), commas(f.hunks))
	if f.hunks == 1 {
		s = strings.TrimSuffix(s, "s")
	}
	if f.binary {
		s = fmt.Sprintf("  %d\t%s: binary", f.pos, f.name)
	}
	switch f.status {
	case "":
	case "renamed":
		s += " [renamed from " + f.from + "]"
	case "mode":
		s += " [mode changed]"
	default:
		s += " [" + f.status + " file]"
	}
	return s
}

// diffCandidates adds the files of a diff: the 10 with the most changed
// lines and the first 10 new, deleted and renamed files first
// (PrioAnomaly), then every file in its order, the first 40 at PrioRare
// and the rest at PrioSecond.
func (tc *textCands) diffCandidates() {
	ds := tc.p.diff
	if ds == nil || len(ds.files) == 0 {
		return
	}
	seen := map[*diffFile]bool{}
	add := func(f *diffFile, prio int, reason string) {
		if seen[f] {
			return
		}
		seen[f] = true
		tc.v.Add(Candidate{Section: tc.sec[tsReport], Key: f.pos, Record: f.pos, Prio: prio, Reason: reason, Text: f.line()})
	}
	big := append([]*diffFile(nil), ds.files...)
	sort.SliceStable(big, func(i, j int) bool { return big[i].added+big[i].deleted > big[j].added+big[j].deleted })
	for _, f := range big[:min(10, len(big))] {
		add(f, PrioAnomaly, "most changed")
	}
	// New, deleted and renamed files: the first 10 of each status.
	byStatus := map[string]int{}
	for _, f := range ds.files {
		if f.status != "" && f.status != "mode" && byStatus[f.status] < 10 {
			byStatus[f.status]++
			add(f, PrioAnomaly, f.status+" file")
		}
	}
	for i, f := range ds.files {
		p := PrioRare
		if i >= 40 {
			p = PrioSecond
		}
		add(f, p, "file")
	}
}

// diffHead is the head of the files section.
func (tc *textCands) diffHead(cs []Candidate) string {
	ds := tc.p.diff
	seen := map[int]bool{}
	for _, c := range cs {
		seen[c.Record] = true
	}
	s := fmt.Sprintf("files, in the diff's order (showing %s of %s: the most changed, new, deleted and renamed first), line<TAB>file: +added -deleted, hunks:\n", commas(len(seen)), commas(ds.nFiles))
	if len(seen) < ds.nFiles {
		s += fmt.Sprintf("every file's header: compact artifact query %s --jq %s\n", tc.in.Handle, tc.jq(`to_entries[] | select(.value | startswith("diff --git ")) | "\(.key)\t\(.value)"`))
	}
	return s
}
