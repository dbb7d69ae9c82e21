package view

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
