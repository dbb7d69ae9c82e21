package view

import (
	"fmt"
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
// values do: the member is a string of a log's records (logRecords),
// its kinds are fewer than its values or its values are not all listed
// (more than 24), and two kinds or more have two records or more. It
// reports whether it wrote.
func (k *coll) kindsLine(b *strings.Builder, f *Field) bool {
	if f.Kinds == nil || f.Types != tString || len(f.Kinds) < 2 || !k.logRecords() {
		return false
	}
	if f.Counts != nil && f.Distinct <= 24 && len(f.Kinds) == f.Distinct {
		return false // (every value is listed with its count)
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
	rest, restN := 0, 0
	for i, x := range ks {
		if i >= kindsShown {
			rest++
			restN += x.n
			continue
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(b, "%s %s", cut(x.k, 48), commas(x.n))
	}
	if rest > 0 {
		fmt.Fprintf(b, ", %d more kinds with %s", rest, commas(restN))
	}
	return true
}

// kindsShown is the most kinds a line lists (the commonest first).
const kindsShown = 24
