package budget

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/toolcompact/compact/schemas"
)

// How level 2 shows rows (docs/context.md, "Rows"): always in the most
// compact faithful form that shows enough of them. A row is shown in one
// of these forms, tried in order; the summary takes the first form that
// shows at least minRows rows (or every record, when there are fewer),
// else the form that shows the most rows:
//
//  1. pinned rows in full (the original record, minified), then leading
//     rows in level 1's form; only when every pinned row fits in full;
//  2. every row in level 1's form (the registry's drops, strings.max,
//     the table format when Rules.Format is table or auto);
//  3. level 1's form with strings shortened further, to 240, 120, 60 and
//     then 30 characters, each marked "…[+N chars]" with the exact number
//     of characters cut (counting what level 1 had already cut).

// minRows is how many rows level 2 tries to show, across collections,
// before it keeps rows longer.
const minRows = 20

// rowForm is one way of showing rows.
type rowForm struct {
	fullPinned bool // pinned rows in full, leading rows in level 1's form
	maxStr     int  // strings longer than this are shortened; 0 keeps level 1's strings
	// maxNested, when not 0, caps the members of objects and the items
	// of arrays nested in a record; the rest are replaced by a marker
	// member "…": "+N members" or item "…[+N items]".
	maxNested int
}

var rowForms = []rowForm{{fullPinned: true}, {}, {maxStr: 240}, {maxStr: 120},
	{maxStr: 60, maxNested: 4}, {maxStr: 30, maxNested: 2}}

// shownRow is one row as a form shows it.
type shownRow struct {
	index     int
	text      string
	tokens    int // 0 until counted (then the text's tokens plus its newline)
	shortened int // strings the form shortened in this row
}

// rowGroup is the rows of one section of a collection (pinned or
// leading) in one form.
type rowGroup struct {
	rows   []shownRow
	full   bool   // rows are the original records in full
	header string // the table header line when rows are table lines
	hdrTok int
}

// formView is a collection's rows in one form.
type formView struct {
	pinned, leading rowGroup
}

// view returns collection ci's rows in form f, computing them once.
func (s *summary) view(fi, ci int) *formView {
	if s.views == nil {
		s.views = make(map[[2]int]*formView)
	}
	key := [2]int{fi, ci}
	if v, ok := s.views[key]; ok {
		return v
	}
	f := rowForms[fi]
	cs := &s.colls[ci]
	v := &formView{}
	if f.fullPinned {
		v.pinned.full = true
		for _, r := range cs.pinned {
			v.pinned.rows = append(v.pinned.rows, shownRow{index: r.index, text: r.text})
		}
	} else {
		v.pinned = s.compactGroup(ci, cs.pinned, true, f.maxStr, f.maxNested)
	}
	v.leading = s.compactGroup(ci, cs.leading, false, f.maxStr, f.maxNested)
	s.views[key] = v
	return v
}

// compactGroup shows rows in level 1's form, with strings longer than
// maxStr shortened further (0: as level 1 left them), as table lines when
// the rules ask for a table and the rows are objects.
func (s *summary) compactGroup(ci int, rows []row, pinned bool, maxStr, maxNested int) rowGroup {
	g := rowGroup{rows: make([]shownRow, len(rows))}
	kind := s.shape.Collections[ci].Kind
	for k, r := range rows {
		text := r.text
		if pinned && r.compact != "" {
			text = r.compact
		}
		n := 0
		if maxStr > 0 {
			if kind == "lines" {
				text, n = shortenLine(text, maxStr)
			} else {
				text, n = shortenJSON(text, maxStr, maxNested)
			}
		}
		g.rows[k] = shownRow{index: r.index, text: text, shortened: n}
	}
	if f := s.in.Rules.Format; (f == "table" || f == "auto") && kind != "lines" && kind != "map" && len(g.rows) > 0 {
		// The table of the first rows (a window: tables are for reading
		// a screenful, and rendering all candidates is not needed).
		w := len(g.rows)
		if limit := s.best.Result.Tokens.Budget/4 + 1; w > limit {
			w = limit
		}
		var jb strings.Builder
		for _, r := range g.rows[:w] {
			jb.WriteString(r.text)
			jb.WriteByte('\n')
		}
		tbl, reason, err := renderTable([]byte(jb.String()), true)
		if err == nil && reason == "" && (f == "table" || len(tbl) < jb.Len()) {
			lines := strings.Split(string(tbl), "\n")
			if len(lines) == w+1 {
				g.header = lines[0]
				g.rows = g.rows[:w]
				for k := range g.rows {
					g.rows[k].text = lines[k+1]
				}
			}
		}
	}
	return g
}

// tok returns the tokens of row k of g (counted once), plus its newline.
func (s *summary) tok(g *rowGroup, k int) int {
	r := &g.rows[k]
	if r.tokens == 0 {
		r.tokens = s.p.counter.Count(r.text) + 1
	}
	return r.tokens
}

// headerTok returns the tokens of g's table header and section line.
func (s *summary) headerTok(g *rowGroup) int {
	if g.hdrTok == 0 {
		g.hdrTok = s.p.counter.Count(g.header) + 30 // the section line
	}
	return g.hdrTok
}

// planRows fills pl with rows in form fi: pinned rows first, then leading
// rows; collections take turns with an equal share of what is left, and a
// second round gives what the first left over to the collections that
// still have rows to show. It reports false when the form shows pinned
// rows in full and they do not all fit.
func (s *summary) planRows(pl *fitPlan, fi int, left int) bool {
	pl.form = fi
	for round := 0; round < 2; round++ {
		var open []int
		for ci := range s.colls {
			v := s.view(fi, ci)
			if pl.pinned[ci] < len(v.pinned.rows) || pl.leading[ci] < len(v.leading.rows) {
				open = append(open, ci)
			}
		}
		for j, ci := range open {
			share := left / (len(open) - j)
			spent := 0
			take := func(g *rowGroup, k int) int {
				for k < len(g.rows) {
					t := s.tok(g, k)
					if k == 0 {
						t += s.headerTok(g)
					}
					if spent+t > share {
						break
					}
					spent += t
					k++
				}
				return k
			}
			v := s.view(fi, ci)
			pl.pinned[ci] = take(&v.pinned, pl.pinned[ci])
			if v.pinned.full && pl.pinned[ci] < len(v.pinned.rows) {
				return false
			}
			if pl.pinned[ci] == len(s.colls[ci].pinned) {
				pl.leading[ci] = take(&v.leading, pl.leading[ci])
			}
			left -= spent
		}
	}
	return true
}

// markerRE matches the marker a shortened string ends with.
var markerRE = regexp.MustCompile(`…\[\+([0-9]+) chars\]$`)

// shortenString cuts s to max characters plus the marker; a string that
// already ends with a marker keeps its count exact (the characters cut
// now plus those cut before). It returns s unchanged when cutting would
// not make it shorter.
func shortenString(s string, max int) (string, bool) {
	before := 0
	body := s
	if m := markerRE.FindStringSubmatchIndex(s); m != nil {
		if n, err := strconv.Atoi(s[m[2]:m[3]]); err == nil {
			before, body = n, s[:m[0]]
		}
	}
	total := utf8.RuneCountInString(body)
	if total <= max+len("…[+00 chars]") {
		return s, false
	}
	i, k := 0, 0
	for j := range body {
		if k == max {
			i = j
			break
		}
		k++
	}
	return body[:i] + shortenMarker(total-max+before), true
}

// shortenJSON shortens the string values (not the member names) of the
// JSON text raw that are longer than max characters and, when nested is
// not 0, keeps at most nested members of each object and items of each
// array inside the record, marking the rest ("…": "+N members",
// "…[+N items]"). Id-like members (name, id, key, state, ...: see idLike)
// are kept first and their strings are not shortened up to 100
// characters, so that a row can still be recognised. It returns the text
// and how many values it shortened, or raw unchanged when it does not
// decode.
func shortenJSON(raw string, max, nested int) (string, int) {
	if len(raw) <= max && nested == 0 {
		return raw, 0
	}
	var out bytes.Buffer
	sh := &shortener{max: max, nested: nested,
		enc: jsontext.NewEncoder(&out, lenient, jsontext.EscapeForHTML(false))}
	dec := jsontext.NewDecoder(strings.NewReader(raw), lenient)
	for {
		if dec.PeekKind() == 0 {
			break
		}
		if err := sh.value(dec, 0, ""); err != nil {
			return raw, 0
		}
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return raw, 0
	}
	return strings.TrimSuffix(out.String(), "\n"), sh.n
}

// shortener rewrites one JSON value for shortenJSON.
type shortener struct {
	max, nested int
	n           int // values shortened
	enc         *jsontext.Encoder
}

// idNames are member names whose values identify a record (lower case);
// names ending in "name" or "id" are id-like too.
var idNames = map[string]bool{"key": true, "uid": true, "namespace": true, "login": true, "phase": true,
	"state": true, "status": true, "type": true, "kind": true, "title": true, "number": true, "arn": true,
	"version": true, "level": true, "path": true}

// idLike reports whether a member called name probably identifies its
// record.
func idLike(name string) bool {
	l := strings.ToLower(name)
	return idNames[l] || strings.HasSuffix(l, "name") || strings.HasSuffix(l, "id")
}

// value copies the next value from dec to the encoder, shortened. depth
// is the number of containers open around it (0 for the record itself);
// name is its member name, if any.
func (sh *shortener) value(dec *jsontext.Decoder, depth int, name string) error {
	switch dec.PeekKind() {
	case '{':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		type member struct {
			name string
			raw  jsontext.Value
		}
		var members []member
		for dec.PeekKind() == '"' {
			t, err := dec.ReadToken()
			if err != nil {
				return err
			}
			name := t.String() // before the next read voids t
			v, err := dec.ReadValue()
			if err != nil {
				return err
			}
			members = append(members, member{name, append(jsontext.Value(nil), v...)})
		}
		if _, err := dec.ReadToken(); err != nil { // '}'
			return err
		}
		keep := make([]bool, len(members))
		kept := len(members)
		if sh.nested > 0 && depth >= 1 && len(members) > sh.nested {
			kept = 0
			for pass := 0; pass < 2; pass++ {
				for i, m := range members {
					if kept < sh.nested && !keep[i] && (pass == 1 || idLike(m.name)) {
						keep[i] = true
						kept++
					}
				}
			}
			sh.n++
		} else {
			for i := range keep {
				keep[i] = true
			}
		}
		if err := sh.enc.WriteToken(jsontext.BeginObject); err != nil {
			return err
		}
		for i, m := range members {
			if !keep[i] {
				continue
			}
			if err := sh.enc.WriteToken(jsontext.String(m.name)); err != nil {
				return err
			}
			sub := jsontext.NewDecoder(bytes.NewReader(m.raw), lenient)
			if err := sh.value(sub, depth+1, m.name); err != nil {
				return err
			}
		}
		if kept < len(members) {
			if err := sh.enc.WriteToken(jsontext.String("…")); err != nil {
				return err
			}
			if err := sh.enc.WriteToken(jsontext.String("+" + strconv.Itoa(len(members)-kept) + " members")); err != nil {
				return err
			}
		}
		return sh.enc.WriteToken(jsontext.EndObject)
	case '[':
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		if err := sh.enc.WriteToken(jsontext.BeginArray); err != nil {
			return err
		}
		items, skipped := 0, 0
		for k := dec.PeekKind(); k != ']' && k != 0; k = dec.PeekKind() {
			if sh.nested > 0 && depth >= 1 && items >= sh.nested {
				if err := dec.SkipValue(); err != nil {
					return err
				}
				skipped++
				continue
			}
			if err := sh.value(dec, depth+1, ""); err != nil {
				return err
			}
			items++
		}
		if _, err := dec.ReadToken(); err != nil { // ']'
			return err
		}
		if skipped > 0 {
			sh.n++
			if err := sh.enc.WriteToken(jsontext.String("…[+" + strconv.Itoa(skipped) + " items]")); err != nil {
				return err
			}
		}
		return sh.enc.WriteToken(jsontext.EndArray)
	}
	t, err := dec.ReadToken()
	if err != nil {
		return err
	}
	if t.Kind() == '"' && sh.max > 0 {
		str := t.String()
		if !(idLike(name) && utf8.RuneCountInString(str) <= 100) {
			if short, ok := shortenString(str, sh.max); ok {
				sh.n++
				return sh.enc.WriteToken(jsontext.String(short))
			}
		}
	}
	return sh.enc.WriteToken(t)
}

// shortenLine shortens a text line longer than max characters.
func shortenLine(line string, max int) (string, int) {
	if str, ok := shortenString(line, max); ok {
		return str, 1
	}
	return line, 0
}

// positions renders record positions as ranges: "0-3, 5, 8-9".
func positions(rows []shownRow) string {
	var b strings.Builder
	for i := 0; i < len(rows); {
		j := i
		for j+1 < len(rows) && rows[j+1].index == rows[j].index+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(rows[i].index))
		if j > i {
			b.WriteString("-")
			b.WriteString(strconv.Itoa(rows[j].index))
		}
		i = j + 1
	}
	return b.String()
}

// renderGroup writes a section of rows: its line (what the rows are, in
// which form, at which positions), the table header when the rows are
// table lines, and the rows.
func (s *summary) renderGroup(b *strings.Builder, title string, g *rowGroup, k int, maxStr, nested int, kind string) {
	if k == 0 {
		return
	}
	rows := g.rows[:k]
	b.WriteString(title)
	switch {
	case g.full:
		b.WriteString(", in full")
	case kind != "lines":
		b.WriteString(", after the field rules")
	}
	short := 0
	for _, r := range rows {
		short += r.shortened
	}
	if short > 0 {
		fmt.Fprintf(b, ", %d values shortened (strings over %d characters: …[+N chars]", short, maxStr)
		if nested > 0 {
			fmt.Fprintf(b, "; nested objects and arrays over %d members: \"…\":\"+N members\", \"…[+N items]\"", nested)
		}
		b.WriteString(")")
	}
	if g.header != "" {
		b.WriteString(", as a table (tab-separated, header first)")
	}
	fmt.Fprintf(b, "; positions %s:\n", positions(rows))
	if g.header != "" {
		b.WriteString(g.header)
		b.WriteString("\n")
	}
	for _, r := range rows {
		b.WriteString(r.text)
		b.WriteString("\n")
	}
}

// shortenActions lists, per collection, the strings the chosen form
// shortened in the rows shown.
func (s *summary) shortenActions(pl fitPlan) []schemas.Action {
	f := rowForms[pl.form]
	if f.maxStr == 0 {
		return nil
	}
	var acts []schemas.Action
	for ci, c := range s.shape.Collections {
		v := s.view(pl.form, ci)
		n := 0
		for _, r := range v.pinned.rows[:pl.pinned[ci]] {
			n += r.shortened
		}
		for _, r := range v.leading.rows[:pl.leading[ci]] {
			n += r.shortened
		}
		if n > 0 {
			acts = append(acts, schemas.Action{Level: schemas.LevelArtifact, Kind: "shorten_strings", Target: c.Path, Count: n,
				Detail: fmt.Sprintf("in the %s rows shown, %d values shortened further: strings longer than %d characters, marked …[+N chars]%s; the originals are in artifact %s",
					commas(pl.pinned[ci]+pl.leading[ci]), n, f.maxStr, nestedNote(f.maxNested), s.art.Handle),
				Handle: s.art.Handle})
		}
	}
	return acts
}

// compactSource returns level 1's records as JSON for collection c (the
// table converted back, or level 1's JSON), with the shape to read them
// by; ok is false when level 1's output does not hold c's records. When
// level 1's output is neither (a plugin's own format), the declarative
// rules are run with format json to get them.
func (s *summary) compactSource(ctx context.Context, c schemas.Collection) ([]byte, Shape, bool) {
	if c.Kind == "lines" {
		return nil, Shape{}, false
	}
	if s.l1data == nil {
		r := s.best.Result
		_, payload := SplitNotice(r.Content) // level 1's notice line, when it has one
		data := []byte(payload)
		switch {
		case r.ContentType == TypeTable:
			if j, err := TableToJSON(data); err == nil {
				s.l1data, s.l1table = j, true
			}
		case r.ContentType == "" || r.ContentType == TypeJSON || r.ContentType == TypeNDJSON:
			if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
				s.l1data = data
			}
		}
		if s.l1data == nil && s.shape.Format != FormatText && s.shape.Format != FormatBinary {
			rules := s.in.Rules
			rules.Format = "json"
			out, err := Declarative().Compact(ctx, Request{Tool: s.in.Tool, Input: s.in.Data, Rules: rules})
			if err == nil {
				s.l1data = out.Content
			}
		}
		if s.l1data == nil {
			s.l1data = []byte{}
		}
	}
	if len(s.l1data) == 0 {
		return nil, Shape{}, false
	}
	kind := c.Kind
	if s.l1table {
		if c.Path != "." || len(s.regColls) != 1 {
			return nil, Shape{}, false
		}
		kind = "array"
	}
	return s.l1data, Shape{Collections: []schemas.Collection{{Path: c.Path, Kind: kind, Count: c.Count}}}, true
}

// nestedNote describes the cap on nested members, when there is one.
func nestedNote(nested int) string {
	if nested == 0 {
		return ""
	}
	return fmt.Sprintf(", and nested objects and arrays cut to %d members, marked \"…\":\"+N members\" or \"…[+N items]\"", nested)
}
