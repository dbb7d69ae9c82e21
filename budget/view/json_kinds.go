package view

import (
	"fmt"
	"strconv"
	"strings"
)

// Logs of several kinds of records.
//
// A JSON-lines log mixes records of several kinds: a server's access
// records ("handled request", with the request's method, URI, headers,
// the response's status, size and duration nested in objects) among
// its start-up, health-check, error and shutdown records, each kind
// with members of its own. Its rows are read by what each record is
// and, for a request, by what it asked for: which request was the
// slowest, which URIs got a 502, what the first "no upstreams
// available" error was about. So among the columns of its rows
// (chooseColumns), two rank high:
//   - the record's kind: its message or event when that repeats, a
//     template rather than free text ("handled request", "no upstreams
//     available"; logKind), before the fields of a few values that
//     only some kinds have;
//   - the resource a request asked for (request.uri, req.url, path;
//     requested), before the request's other short members (a client
//     port, a protocol), in a log only (logRecords): an API's records
//     link to themselves and their users by URL (github's user.url),
//     which says less than their own fields (rev17 R9).

// logKind reports whether f is the kind of a log's records: a string
// field in nine records of ten or more, named like a message or an
// event, whose values repeat (2 to 64 of them, each in four records on
// average): "handled request", "no upstreams available", "request
// completed" in a JSON-lines log of several kinds of records.
func logKind(f *Field, records int) bool {
	return f.Types == tString && f.Counts != nil && f.Distinct >= 2 && f.Distinct <= 64 && f.Distinct*4 <= f.Values &&
		f.Present*10 >= records*9 && logKindNames.MatchString(f.Path)
}

// logKindNames are names of the field that says what a log record is.
var logKindNames = mustPathRe(`(?i)^(msg|message|event|evt|event_type|eventtype)$`)

// logRecords reports whether the records are a log's: a member of the
// record itself is its kind (logKind) or its level (a string of 1 to 8
// values named like a level).
func (k *coll) logRecords() bool {
	p := k.p
	for _, f := range p.Fields {
		if f.parent != p.root || f.inArr {
			continue
		}
		if logKind(f, p.Records) || f.Types == tString && f.Counts != nil && f.Distinct <= 8 && f.Present*10 >= p.Records*9 && levelNames.MatchString(f.Path) {
			return true
		}
	}
	return false
}

// levelNames are names of a log record's level.
var levelNames = mustPathRe(`(?i)^(level|lvl|severity|log\.level|levelname|loglevel)$`)

// requested reports whether f is the resource a request asked for: a
// short string (a row's cell) named like a URI, a URL or a path, of at
// least one value for every four records (the records' own, not a few
// endpoints).
func requested(f *Field, records int) bool {
	return f.Types == tString && requestNames.MatchString(f.Path) && f.MaxLen <= cellWidth && f.Distinct*4 >= records
}

// requestNames are names of the resource a request asked for.
var requestNames = mustPathRe(`(?i)(^|[._])(uri|url|path|route|endpoint)$`)

// Counts of a log's records by kind.
//
// A log's records are counted by what they are: how many times a
// snapshot was saved (etcd's msg "saved snapshot"), how many slow puts
// were traced ("trace[658399377] put", one message per trace), how many
// entries came from raft/raft.go (zap's caller "raft/raft.go:765"). When
// such a member has more values than the profile counts one by one (64),
// its values were never listed, and a message that names an id or a
// number is a value of its own each time. So a member of the record
// itself named like a message or an event (kindShape) is also counted
// by its shape, digit runs as # and runs mixing letters and digits as *
// ("trace[#] put"), and one named like a caller or a source location
// (kindFile) by the file, its line number dropped ("raft/raft.go").
// The counts are exact: each value's kind is worked out once, when the
// profile first sees it (noteKind, per distinct value, not per record),
// and the values' exact counts are added up by kind at Finish
// (kindsOfTab, kindsOfCounts). Past maxDistinct values, or past
// maxLogKinds kinds, nothing is counted by kind (no line).

// Ways a member is counted by kind (Field.kindOf).
const (
	kindShape = 1 + iota // by its shape (a message, an event)
	kindFile             // by its file, the line number dropped (a caller)
)

// maxLogKinds is the most kinds a member is counted by.
const maxLogKinds = 256

// kindShapeNames and kindFileNames are the names of the members counted
// by kind: a message or an event, a caller or a source location.
var (
	kindShapeNames = mustPathRe(`(?i)^(msg|message|event|evt|event_type|eventtype|action)$`)
	kindFileNames  = mustPathRe(`(?i)^(caller|source|src|location|loc|origin)$`)
)

// kindOfName is how a member of a record (by its name) is counted by
// kind: kindShape, kindFile or 0.
func kindOfName(name string) int8 {
	switch {
	case kindShapeNames.MatchString(name):
		return kindShape
	case kindFileNames.MatchString(name):
		return kindFile
	}
	return 0
}

// kindKey is the kind of the value raw (its JSON text) of a member
// counted by kind k, as shown: a string's shape or its file, without
// the quotes (escapes kept); any other value as written.
func kindKey(k int8, raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return raw
	}
	body := raw[1 : len(raw)-1]
	switch k {
	case kindShape:
		if len(body) > 100 {
			return body
		}
		return string(appendPattern(nil, []byte(body)))
	case kindFile:
		// "raft/raft.go:765" -> "raft/raft.go", "x.js:12:5" -> "x.js"
		for range 2 {
			i := strings.LastIndexByte(body, ':')
			if i <= 0 || i == len(body)-1 || strings.TrimLeft(body[i+1:], "0123456789") != "" {
				break
			}
			body = body[:i]
		}
		return body
	}
	return body
}

// noteKind notes the kind of a value of f first seen in its table (hash
// h, JSON text raw).
func (f *Field) noteKind(h uint64, raw string) {
	if f.kindAt == nil {
		f.kindAt = map[uint64]string{}
	}
	f.kindAt[h] = kindKey(f.kindOf, raw)
}

// kindsOfTab adds up the counts of f's table by kind (Finish, before the
// table goes).
func (f *Field) kindsOfTab() {
	m := map[string]int{}
	for i := range f.tab.slots {
		e := &f.tab.slots[i]
		if e.h == 0 {
			continue
		}
		k, ok := f.kindAt[e.h]
		if !ok {
			return // (a value with no kind: no counts)
		}
		m[k] += int(e.st.n)
		if len(m) > maxLogKinds {
			f.kindAt = nil
			return
		}
	}
	f.Kinds, f.kindAt = m, nil
}

// kindsOfCounts adds up the counts of f's values by kind (Finish).
func (f *Field) kindsOfCounts() {
	m := make(map[string]int, len(f.Counts))
	for raw, n := range f.Counts {
		m[kindKey(f.kindOf, raw)] += n
	}
	f.Kinds = m
}

// kindsLine writes f's records by kind ("; by kind (...): saved
// snapshot 4, trace[#] put 12, ..."), when that says more than its
// values do: the member is a string of a log's records (a stream of
// records, JSON lines, with a kind or a level: logRecords; a linter's
// array of findings with a level is no log: its rows are worth more),
// its values were not counted one by one (more than 64) or have half as
// many kinds (a caller's lines in a few files), and two kinds or more
// have two records or more. It
// reports whether it wrote.
func (k *coll) kindsLine(b *strings.Builder, f *Field) bool {
	if f.Kinds == nil || f.Types != tString || len(f.Kinds) < 2 || k.c.Kind != "jsonl" && k.c.Kind != "concat" || !k.logRecords() {
		return false
	}
	if f.Counts != nil && 2*len(f.Kinds) > f.Distinct {
		return false // (its values are counted, and few of them share a kind)
	}
	ks, _ := byCount(f.Kinds)
	if len(ks) < 2 || ks[1].n < 2 {
		return false
	}
	switch f.kindOf {
	case kindFile:
		b.WriteString("; by file (the line number dropped; exact counts of records): ")
	default:
		b.WriteString("; by kind (# a digit run, * letters and digits mixed; exact counts of records): ")
	}
	countList(b, ks, 48, "more kinds", func(i int, _ keyCount) bool { return i < kindsShown })
	return true
}

// kindsShown is the most kinds a line lists (the commonest first).
const kindsShown = 24

// The largest numbers per kind.
//
// A number several kinds of records hold is a different measure in
// each: winston's "ms" is a file's compression time in "compressed",
// a batch's in "batch done", the whole build's in "build finished", so
// the member's one maximum (the build's) answers "the slowest
// compression" wrongly; vegeta's "latency" of the requests that got a
// 200 is not that of the ones that timed out (code 0). For a stream of
// records (JSON lines), per value of its kind (a message, an event:
// kindShape) or of its response code (codeKindNames), the tracker
// already sums each number per value and keeps its largest with the
// first record holding it (rows.go's gsum: the group candidates it
// follows, kindGroup), so the view states, per number held by two kinds
// or more of which one holds a larger number than the commonest kind
// does (the member's maximum is another kind's), each kind's largest
// and its record: "ms by message (...): compressed 656 (record 412), batch done
// 1822 (record 300), ...". Nothing per record beyond the tracker's sums.

// codeKindNames are names of a record's response code or status.
var codeKindNames = mustPathRe(`(?i)^(code|status|status_code|statuscode|http_status|result)$`)

// kindGroup reports whether the tracker follows f, a member of the
// record itself, as a group of records (its sums and largest numbers per
// value): a message or an event (kindShape), a response code.
func kindGroup(f *Field) bool {
	return f.kindOf == kindShape || f.parent != nil && f.parent.Path == "." && codeKindNames.MatchString(f.Path)
}

// Limits of the lines of the largest numbers per kind.
const (
	kindMaxKinds    = 12 // kinds listed per line, the commonest first
	kindMaxMeasures = 4  // numbers per kind field
)

// kindMaxLines are the lines of the largest numbers per kind (see
// above), for a stream of records: made once the rows are chosen
// (rows.go, while the tracker's sums are there), shown with the
// profile's lines (k.kindMax).
func (k *coll) kindMaxLines() []string {
	t, p := k.t, k.p
	if t == nil || p.Map || k.c.Kind != "jsonl" && k.c.Kind != "concat" {
		return nil
	}
	var out []string
	for g, gf := range t.groups {
		if !t.gactive[g] || !kindGroup(gf) || gf.Counts == nil || gf.Distinct < 2 || gf.Distinct > 64 || k.hidden(gf) {
			continue
		}
		sums := t.sums[g]
		keys := sumKeys(sums)
		nf := k.kindNameField(gf)
		shown := 0
		for m, mf := range t.measures {
			if shown >= kindMaxMeasures {
				break
			}
			if mf == gf || mf == p.Identity || mf.ownNumbers() == 0 || mf.ownNumbers() != mf.Values-mf.Nulls || mf.Distinct <= 12 || k.hidden(mf) ||
				refNumber(mf.Path) || codeNumber(mf.Path) || timeStampNames.MatchString(mf.Path) || epochField(mf) || identityScore(mf.Path) >= 50 {
				continue
			}
			// (held: the values whose records hold the number, the
			// commonest first; above: one of them holds a larger number
			// than the commonest, so the member's one maximum is not
			// the commonest kind's)
			var held []string
			above := false
			for _, v := range keys {
				s := sums[v]
				if m >= len(s.has) || s.has[m] == 0 {
					continue
				}
				if len(held) > 0 && s.max[m] > sums[held[0]].max[m] {
					above = true
				}
				held = append(held, v)
			}
			if len(held) < 2 || !above {
				continue
			}
			var b strings.Builder
			fmt.Fprintf(&b, "  %s by %s (the largest per value, exact, and the first record holding it", k.short(mf), k.short(gf))
			if nf != nil {
				fmt.Fprintf(&b, ", its %s", k.short(nf))
			}
			b.WriteString("):")
			for i, v := range held {
				if i >= kindMaxKinds {
					fmt.Fprintf(&b, ", %d more values", len(held)-i)
					break
				}
				if i > 0 {
					b.WriteByte(',')
				}
				s := sums[v]
				name := v
				if u, err := strconv.Unquote(v); err == nil {
					name = u
				}
				fmt.Fprintf(&b, " %s %s", cut(name, 40), numExact(s.max[m]))
				if s.maxRec[m] >= 0 {
					fmt.Fprintf(&b, " (record %d", s.maxRec[m])
					if nf != nil {
						if name := k.leafOf(s.maxRaw[m], nf); name != "" {
							fmt.Fprintf(&b, ", %s", tailCut(name, 48))
						}
					}
					b.WriteByte(')')
				}
			}
			out = append(out, b.String())
			shown++
		}
	}
	return out
}

// kindNameNames are names of what a log record is about: a file, a
// URL, a function, a package.
var kindNameNames = mustPathRe(`(?i)(^|[._])(file|filename|path|url|uri|name|func|function|method_name|pkg|package|key|target|resource|query|seq)$`)

// kindNameField is the member that names what a record of a kind is
// about (kindNameNames: the file, the URL), shown beside a kind's
// largest number: a member of the record itself of several values,
// other than the kind g, in the most records; nil when none. A string
// member comes before a number (a request's url before its seq: the url
// says which request, REVIEW18 R5).
func (k *coll) kindNameField(g *Field) *Field {
	p := k.p
	var best *Field
	isString := func(f *Field) bool { return f.Types&tString != 0 }
	for _, f := range p.Fields {
		if f == g || f.parent != p.root || f.inArr || f.Distinct < 2 || f.Types&^(tString|tNumber) != 0 || k.hidden(f) || !kindNameNames.MatchString(f.Path) {
			continue
		}
		switch {
		case best == nil:
			best = f
		case isString(f) != isString(best):
			if isString(f) {
				best = f
			}
		case f.Present > best.Present:
			best = f
		}
	}
	return best
}

// leafOf is the value of f (a member of the record itself) in the
// record raw, unquoted; "" when the record has none.
func (k *coll) leafOf(raw []byte, f *Field) string {
	v := ""
	k.p.leavesOf(raw, k.p.mask(f), func(g *Field, x []byte) {
		if g == f && v == "" {
			v = cell(string(x), 1<<30)
		}
	})
	return v
}

// tailCut is s cut to its last n characters, the cut marked with "…" (a
// path's or a URL's end names it).
func tailCut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}
