package view_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// caddyJSONLog is Caddy 2.6.2's stderr with a JSON access log: 140
// requests (static files, an API reverse-proxied to a node backend that
// is stopped after the 109th, a ping, unknown paths) among its start-up,
// error and shutdown records, one JSON object per line.
const caddyJSONLog = "testdata/caddy-json-log-api.jsonl"

// TestLogRowsShowKindAndResource: the rows of a JSON-lines log of
// several kinds of records show each record's kind (its msg: "handled
// request", "dial tcp ...: connection refused") and the resource a
// request asked for (request.uri): the slowest request and the requests
// that got a 502 (the access record and the error record of each) are
// read off their rows by their kind and URI. On the code
// before, request.uri was no column (a client port and a header were).
func TestLogRowsShowKindAndResource(t *testing.T) {
	data := readFile(t, caddyJSONLog)
	type rec struct {
		Msg      string  `json:"msg"`
		Status   int     `json:"status"`
		Duration float64 `json:"duration"`
		Request  struct {
			URI string `json:"uri"`
		} `json:"request"`
		raw string
	}
	var recs []rec
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r rec
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		r.raw = sc.Text()
		recs = append(recs, r)
	}
	slowest := -1
	for i, r := range recs {
		if r.Msg == "handled request" && (slowest < 0 || r.Duration > recs[slowest].Duration) {
			slowest = i
		}
	}
	v, _ := viewOf(t, caddyJSONLog)
	fl := fillAt(t, v, 4000)
	var header string
	rows := map[int]string{}
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.HasPrefix(l, "#\t") {
			header = l
			continue
		}
		if i := strings.IndexByte(l, '\t'); i > 0 {
			if n, err := strconv.Atoi(l[:i]); err == nil {
				rows[n] = l
			}
		}
	}
	cols := strings.Split(header, "\t")
	for _, want := range []string{"msg", "request.uri"} {
		if !strings.Contains("\t"+header+"\t", "\t"+want+"\t") {
			t.Errorf("the rows have no %s column: %q", want, header)
		}
	}
	t.Logf("columns: %v", cols)
	row, ok := rows[slowest]
	if !ok {
		t.Fatalf("the slowest request (record %d) has no row at 4,000 tokens", slowest)
	}
	if !strings.Contains(row, "\t"+recs[slowest].Request.URI+"\t") {
		t.Errorf("the slowest request's row does not show its URI %s: %q", recs[slowest].Request.URI, row)
	}
	shown := 0
	for i, r := range recs {
		if r.Status != 502 {
			continue
		}
		if row, ok := rows[i]; ok {
			shown++
			if !strings.Contains(row, "\t"+r.Request.URI+"\t") || !strings.Contains(row, "\t"+cut(r.Msg)) {
				t.Errorf("the row of a 502 (record %d) does not show its kind and URI %s: %q", i, r.Request.URI, row)
			}
		}
	}
	if shown == 0 {
		t.Errorf("no row of a request that got a 502 at 4,000 tokens")
	}
}

// cut is the head of a cell the view may cut (at 48 characters).
func cut(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}

// TestAPILinksNoRequestColumn: the records of an API (the GitHub issues
// API, ../../testdata/captured/github-issues.json) link to their users
// by URL (user.url: "https://api.github.com/users/..."); that is no
// resource a request asked for, which ranks high in a log's rows only.
// At 2,000 tokens its rows show 8 issues with author_association, no
// user.url; on the old code user.url was a column and the rows 7.
func TestAPILinksNoRequestColumn(t *testing.T) {
	v, _ := viewOf(t, "../../testdata/captured/github-issues.json")
	for _, b := range []int{2000, 8000} {
		fl := fillAt(t, v, b)
		for _, l := range strings.Split(fl.Text, "\n") {
			if strings.HasPrefix(l, "#\t") && strings.Contains(l, "\tuser.url\t") {
				t.Errorf("at %d: user.url is a column of the rows: %s", b, l)
			}
		}
		if b == 2000 && !strings.Contains(fl.Text, "100 records; showing 8 of 100;") {
			t.Errorf("at %d: not 8 rows:\n%s", b, fl.Text)
		}
	}
}
