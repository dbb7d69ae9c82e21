package view

import (
	"fmt"
	"strings"
)

// Commit lists: git log --oneline, git log --graph (--oneline or not),
// with or without --decorate. A commit is a line whose graph part (the
// characters * | / \ _ . - and spaces git draws its lanes with) holds a
// '*' and is followed by an abbreviated or full hash ("* 4ef1256 fix:
// ...", "| * commit 8b24546...", "4ef1256 fix: ..." without a graph).
// Counted exactly over every line: commits; merges (a commit drawn with
// a second parent: the graph line below it opens a lane with '\' right
// of its '*', or its line says "Merge:"); subjects that start with
// "Merge "; the refs of the decorations "(HEAD -> main, tag: v1.2,
// origin/main)" with the commit each names; subjects by their first
// word. The commits are the text's records; their subjects are free
// text, so a severity word in them makes no error line worth showing
// first (the count is still stated).

const (
	maxGraphRefs  = 4000 // refs kept with their commits (more are counted)
	maxGraphWords = 2000 // distinct first words of subjects counted
)

// graphRef is one ref of a decoration and the commit that carries it.
type graphRef struct {
	name string // "v1.2" for a tag, "main", "origin/main", "HEAD -> main"
	tag  bool
	hash string
	pos  int
}

// graphStats counts a commit list.
type graphStats struct {
	graph      bool // lines have a graph part (git log --graph)
	commits    int
	merges     int // drawn with a second parent
	mergeSubj  int // subjects that start with "Merge "
	tags       int
	branches   int // refs that are no tag (HEAD -> x counted as x)
	refs       []graphRef
	refsMore   int
	words      map[string]int // subjects by their first word (lower case, ':' and '(' cut)
	wordsOther int
	head       string  // the commit HEAD points at, "hash (refs)"
	starCol    int     // the last line's commit's '*' column, or -1
	merged     bool    // the current commit is counted as a merge
	awaitSubj  bool    // the current commit's subject is on a line below it (no --oneline)
	first      posLine // the first commit line (the newest)
	last       posLine // the last commit line (the oldest)
}

// graphPrefix returns the length of a line's graph part (its leading
// lane characters and spaces) and the column of its '*' (-1 when none).
func graphPrefix(line string) (int, int) {
	star := -1
	i := 0
	for i < len(line) {
		switch line[i] {
		case '*':
			if star >= 0 {
				return i, star
			}
			star = i
		case '|', '/', '\\', '_', '.', '-', ' ':
		default:
			return i, star
		}
		i++
	}
	return i, star
}

// hexRun returns the length of the run of lower-case hex digits at the
// start of s.
func hexRun(s string) int {
	i := 0
	for i < len(s) && (isDigitByte(s[i]) || s[i] >= 'a' && s[i] <= 'f') {
		i++
	}
	return i
}

// commitLine splits a line of a commit list: its graph part's '*'
// column, the hash, the decoration (without its parentheses) and the
// subject; ok is false when the line is no commit.
func commitLine(line string) (star int, hash, deco, subject string, ok bool) {
	g, star := graphPrefix(line)
	rest := line[g:]
	if star < 0 && g > 0 {
		return -1, "", "", "", false // a graph line without a commit
	}
	rest = strings.TrimPrefix(rest, "commit ")
	n := hexRun(rest)
	if n < 7 || n > 64 || n < len(rest) && rest[n] != ' ' {
		return -1, "", "", "", false
	}
	hash, rest = rest[:n], strings.TrimPrefix(rest[n:], " ")
	if strings.HasPrefix(rest, "(") {
		if j := strings.Index(rest, ")"); j > 0 {
			deco, rest = rest[1:j], strings.TrimPrefix(rest[j+1:], " ")
		}
	}
	return star, hash, deco, rest, true
}

// isGraphLine reports whether a line is only lanes ("|/", "| |\", "|\  ").
func isGraphLine(line string) bool {
	t := strings.TrimRight(line, " ")
	if t == "" {
		return false
	}
	g, star := graphPrefix(t)
	return g == len(t) && star < 0
}

// detectGraph reports whether most lines of a sample are a commit list:
// at least 3 commits, and commits and lane lines (or, with --graph, any
// line with a graph part, such as "| Author: ...") make 80% of the
// non-blank lines. A line opening with a hash is a commit only when its
// subject reads as one (wordySubject).
func isCommitListLine(line string) (commit, lane bool) {
	if _, _, _, subj, ok := commitLine(line); ok && wordySubject(subj) {
		return true, false
	}
	if isGraphLine(line) || len(line) > 2 && (line[0] == '|' || line[0] == '*') && line[1] == ' ' {
		return false, true
	}
	return false, false
}

// wordySubject reports whether a commit line's subject reads as one:
// two tokens or more that are not numbers ("Fix the parser"), not the
// typed cells of a table after a hash (git cat-file --batch-check's
// "blob 21912 25").
func wordySubject(subj string) bool {
	n := 0
	for _, t := range strings.Fields(subj) {
		if _, _, ok := parseDecimal(t); !ok {
			n++
		}
	}
	return n >= 2
}

func newGraphStats() *graphStats {
	return &graphStats{words: map[string]int{}, starCol: -1}
}

// add counts one line.
func (gs *graphStats) add(pos int, line string) {
	star, hash, deco, subj, ok := commitLine(line)
	if !ok {
		g, _ := graphPrefix(line)
		body := line[g:]
		if c := gs.starCol; c >= 0 {
			// The edges that leave the commit's '*' on the line below
			// it: a merge has two or more ('/' left of it, '|' under
			// it, '\' right of it).
			edges := 0
			for k, want := range []byte{'/', '|', '\\'} {
				if i := c - 1 + k; i >= 0 && i < len(line) && line[i] == want {
					edges++
				}
			}
			if edges >= 2 {
				gs.markMerge()
			}
		}
		gs.starCol = -1
		if strings.HasPrefix(body, "Merge: ") {
			gs.markMerge()
		}
		if gs.awaitSubj && strings.HasPrefix(body, "    ") && strings.TrimSpace(body) != "" {
			gs.awaitSubj = false
			t := strings.TrimSpace(body)
			if strings.HasPrefix(t, "Merge ") {
				gs.mergeSubj++
			}
			gs.countWord(subjectWord(t))
		}
		return
	}
	if star >= 0 {
		gs.graph = true
	}
	gs.commits++
	gs.merged = false
	if gs.commits == 1 {
		gs.first = posLine{pos, line}
	}
	gs.last = posLine{pos, line}
	gs.starCol = star
	gs.awaitSubj = subj == ""
	if subj != "" {
		if strings.HasPrefix(subj, "Merge ") {
			gs.mergeSubj++
		}
		gs.countWord(subjectWord(subj))
	}
	if deco == "" {
		return
	}
	for _, r := range strings.Split(deco, ", ") {
		r = strings.TrimSpace(r)
		ref := graphRef{name: r, hash: hash, pos: pos}
		switch {
		case strings.HasPrefix(r, "tag: "):
			ref.name, ref.tag = r[len("tag: "):], true
			gs.tags++
		case strings.HasPrefix(r, "HEAD"):
			gs.head = hash + " (" + deco + ")"
			if strings.HasPrefix(r, "HEAD -> ") {
				gs.branches++
			}
		default:
			gs.branches++
		}
		if len(gs.refs) < maxGraphRefs {
			gs.refs = append(gs.refs, ref)
		} else {
			gs.refsMore++
		}
	}
}

// markMerge counts the current commit as a merge, once.
func (gs *graphStats) markMerge() {
	if gs.commits > 0 && !gs.merged {
		gs.merges++
		gs.merged = true
	}
}

// subjectWord is the first word of a subject, lower case, cut at ':' or
// '(' ("fix" of "fix: x", "feat" of "feat(cli): y"), or "" when it has
// no letter.
func subjectWord(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexAny(s, ":(!"); i >= 0 {
		s = s[:i]
	}
	if s == "" || !letters(s[:1]) || len(s) > 30 {
		return ""
	}
	return strings.ToLower(s)
}

func (gs *graphStats) countWord(w string) {
	if w == "" {
		return
	}
	if !countUpTo(gs.words, w, maxGraphWords) {
		gs.wordsOther++
	}
}

// facts are the commit list's counts, one line each.
func (gs *graphStats) facts() []string {
	var out []string
	s := fmt.Sprintf("commits: %s (lines with a hash", commas(gs.commits))
	if gs.graph {
		s += " after the graph's lanes"
	}
	s += fmt.Sprintf("); merges: %s (", commas(gs.merges))
	if gs.graph {
		s += "drawn with a second parent"
	} else {
		s += "with a Merge: line"
	}
	s += fmt.Sprintf("); subjects starting with \"Merge \": %s; tags: %s; other refs: %s", commas(gs.mergeSubj), commas(gs.tags), commas(gs.branches))
	out = append(out, s)
	if gs.head != "" {
		out = append(out, "HEAD: "+gs.head)
	}
	if len(gs.words) > 1 {
		list, _, _, rest := topCounts(gs.words, 16, noCut)
		s := "subjects by their first word (exact counts): " + list
		if rest += gs.wordsOther; rest > 0 {
			s += fmt.Sprintf("; %s other subjects", commas(rest))
		}
		out = append(out, s)
	}
	return out
}

// graphCandidates adds the refs of a commit list (the tags and branches
// with their commits, in the list's order: newest first), in groups of
// 16 refs, the first group with the anomalies.
func (tc *textCands) graphCandidates(prio int) {
	gs := tc.p.graph
	if gs == nil || len(gs.refs) == 0 {
		return
	}
	const group = 16
	for i := 0; i < len(gs.refs); i += group {
		var parts []string
		for _, r := range gs.refs[i:min(i+group, len(gs.refs))] {
			name := r.name
			if r.tag {
				name = "tag: " + name // as git decorates it
			}
			parts = append(parts, fmt.Sprintf("%s %s@%d", name, r.hash, r.pos))
		}
		p := prio
		if i >= 2*group {
			p = PrioSecond
		}
		if i == 0 || i+group >= len(gs.refs) {
			p = prio // the newest and the oldest refs
		}
		tc.v.Add(Candidate{Section: tc.sec[tsReport], Key: i, Record: -1, Prio: p, Reason: "refs", Text: "  " + strings.Join(parts, ", ")})
	}
}

// graphHead is the head of the refs section.
func (tc *textCands) graphHead(cs []Candidate) string {
	gs := tc.p.graph
	n := 0
	for _, c := range cs {
		n += strings.Count(c.Text, "@")
	}
	s := fmt.Sprintf("refs of the decorations with their commits, newest first (showing %s of %s; name hash@line):\n", commas(n), commas(len(gs.refs)+gs.refsMore))
	if n < len(gs.refs)+gs.refsMore {
		s += fmt.Sprintf("every tagged commit: compact artifact query %s --jq %s\n", tc.in.Handle, tc.jq(`to_entries[] | select(.value | test("[(, ]tag: ")) | "\(.key)\t\(.value)"`))
	}
	return s
}

// contentLines reports whether the text's lines are content (commit
// subjects, a diff's lines of code) rather than a log's messages: their
// severity words are counted but the lines are not shown first.
func (tc *textCands) contentLines() bool {
	return tc.p != nil && (tc.p.kind == textCommits || tc.p.kind == textDiff)
}

// reportCandidates adds the candidates of the report kinds: a commit
// list's refs, a diff's files, the per-record index of long records.
func (tc *textCands) reportCandidates() {
	if tc.p == nil {
		return
	}
	switch tc.p.kind {
	case textCommits:
		tc.graphCandidates(PrioAnomaly)
	case textDiff:
		tc.diffCandidates()
	}
}

// reportHead is the head of section tsReport.
func (tc *textCands) reportHead(cs []Candidate) string {
	switch tc.p.kind {
	case textCommits:
		return tc.graphHead(cs)
	case textDiff:
		return tc.diffHead(cs)
	}
	return ""
}
