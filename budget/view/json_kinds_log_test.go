package view_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
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
// At 2,000 tokens its rows show 7 issues with author_association, no
// user.url (8 before the profile named the record of each reaction's
// largest count; on the old code user.url was a column and the rows 7).
func TestAPILinksNoRequestColumn(t *testing.T) {
	v, _ := viewOf(t, "../../testdata/captured/github-issues.json")
	for _, b := range []int{2000, 8000} {
		fl := fillAt(t, v, b)
		for _, l := range strings.Split(fl.Text, "\n") {
			if strings.HasPrefix(l, "#\t") && strings.Contains(l, "\tuser.url\t") {
				t.Errorf("at %d: user.url is a column of the rows: %s", b, l)
			}
		}
		if b == 2000 && !strings.Contains(fl.Text, "100 records; showing 7 of 100;") {
			t.Errorf("at %d: not 7 rows:\n%s", b, fl.Text)
		}
	}
}

// TestLogCountedByKind: a zap log of etcd (the first 130 lines of
// etcd 3.4.23's stderr under `etcdctl check perf`,
// testdata/etcd-zap-log-perf-head.jsonl) has 124 distinct messages,
// 92 of them "trace[<id>] put" (one per slow put), so its msg values
// are never listed one by one. The view counts the records by the
// message's shape ("trace[#] put 92", "saved snapshot 2") and by the
// caller's file, its line number dropped ("raft/raft.go 18"): each
// count equals the records' own, counted here. On the old code the msg
// line was "124 distinct, longest N chars" and the caller's "before the
// first /: etcdserver ...", no message nor file counted.
func TestLogCountedByKind(t *testing.T) {
	const name = "testdata/etcd-zap-log-perf-head.jsonl"
	data := readFile(t, name)
	trace := regexp.MustCompile(`^trace\[\d+\] put$`)
	line := regexp.MustCompile(`:\d+$`)
	msgs, files := map[string]int{}, map[string]int{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct{ Msg, Caller string }
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if trace.MatchString(r.Msg) {
			r.Msg = "trace[#] put"
		}
		msgs[r.Msg]++
		files[line.ReplaceAllString(r.Caller, "")]++
	}
	if msgs["trace[#] put"] < 64 {
		t.Fatalf("the capture has %d traced puts", msgs["trace[#] put"])
	}
	v, _ := viewOf(t, name)
	fl := fillAt(t, v, 4000)
	var msgLine, callerLine string
	for _, l := range strings.Split(fl.Text, "\n") {
		switch {
		case strings.HasPrefix(l, "  msg ("):
			msgLine = l
		case strings.HasPrefix(l, "  caller ("):
			callerLine = l
		}
	}
	for _, m := range []string{"trace[#] put", "saved snapshot", "triggering snapshot", "started to purge file"} {
		if want := fmt.Sprintf(" %s %d", m, msgs[m]); msgs[m] == 0 || !strings.Contains(msgLine, want) {
			t.Errorf("the msg line has no %q:\n%s", want, msgLine)
		}
	}
	for _, f := range []string{"raft/raft.go", "etcdserver/server.go", "traceutil/trace.go"} {
		if want := fmt.Sprintf(" %s %d", f, files[f]); files[f] == 0 || !strings.Contains(callerLine, want) {
			t.Errorf("the caller line has no %q:\n%s", want, callerLine)
		}
	}
}

// TestLogLargestPerKind: a service's JSON-lines log
// (../../testdata/captured/app-log.jsonl) writes duration_ms in four
// kinds of records: "request served", "slow request", "request failed",
// "query failed". The member's one maximum is a failed query's; the
// slowest served request is another number. At 8,000 tokens the view
// states each kind's largest duration_ms with the first record holding
// it and that record's path, each equal to the records' own, worked out
// here. On the old code no line said any kind's largest.
func TestLogLargestPerKind(t *testing.T) {
	const name = "../../testdata/captured/app-log.jsonl"
	data := readFile(t, name)
	type best struct {
		max  float64
		rec  int
		path string
	}
	by := map[string]*best{}
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r struct {
			Msg  string   `json:"msg"`
			Dur  *float64 `json:"duration_ms"`
			Path string   `json:"path"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.Dur == nil {
			continue
		}
		if b := by[r.Msg]; b == nil || *r.Dur > b.max {
			by[r.Msg] = &best{*r.Dur, i, r.Path}
		}
	}
	if len(by) < 3 {
		t.Fatalf("duration_ms in %d kinds of records", len(by))
	}
	v, _ := viewOf(t, name)
	fl := fillAt(t, v, 8000)
	var line string
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.HasPrefix(l, "  duration_ms by msg (the largest per value") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no line of duration_ms's largest per msg:\n%s", fl.Text)
	}
	for m, b := range by {
		want := fmt.Sprintf(" %s %s (record %d", m, strconv.FormatFloat(b.max, 'f', -1, 64), b.rec)
		if b.path != "" {
			want += ", " + b.path + ")"
		}
		if !strings.Contains(line, want) {
			t.Errorf("no %q in %s", want, line)
		}
	}
}

// TestLargestPerKindNamedByString: a load tester's JSON-lines results
// (vegeta encode's shape: attack, seq, code, latency, url) name a
// request by its url, not by its seq, which only counts the requests.
// The line of each code's largest latency names the url of the record
// holding it (REVIEW18 R5). On the old code it named the seq: the first
// member in order won when both were in every record.
func TestLargestPerKindNamedByString(t *testing.T) {
	var b bytes.Buffer
	type rec struct {
		Attack  string `json:"attack"`
		Seq     int    `json:"seq"`
		Code    int    `json:"code"`
		Time    string `json:"timestamp"`
		Latency int    `json:"latency"`
		BytesIn int    `json:"bytes_in"`
		Error   string `json:"error"`
		Method  string `json:"method"`
		URL     string `json:"url"`
	}
	codes := []int{200, 200, 200, 200, 200, 200, 404, 503}
	type best struct {
		lat int
		url string
	}
	want := map[int]best{}
	for i := range 400 {
		r := rec{Attack: "smoke", Seq: i, Code: codes[(i*7)%len(codes)], Latency: 1_000_000 + (i*i*7919)%900_001, BytesIn: 40 + i%9, Method: "GET",
			Time: fmt.Sprintf("2026-11-27T07:37:%02d.%06dZ", 10+i/20, (i%20)*50_000),
			URL:  fmt.Sprintf("http://127.0.0.1:18111/api/invoices/%d", 5000+(i*37)%997)}
		if r.Code != 200 {
			r.Error = fmt.Sprintf("%d %s", r.Code, map[int]string{404: "Not Found", 503: "Service Unavailable"}[r.Code])
		}
		if w, ok := want[r.Code]; !ok || r.Latency > w.lat {
			want[r.Code] = best{r.Latency, r.URL}
		}
		line, _ := json.Marshal(r)
		b.Write(append(line, '\n'))
	}
	v, _ := viewOfData(t, b.Bytes())
	fl := fillAt(t, v, 8000)
	var line string
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.HasPrefix(l, "  latency by code (the largest per value") {
			line = l
		}
	}
	if line == "" {
		t.Fatalf("no line of latency's largest per code:\n%s", fl.Text)
	}
	for code, w := range want {
		if !strings.Contains(line, fmt.Sprintf(" %d %d (record ", code, w.lat)) || !strings.Contains(line, w.url) {
			t.Errorf("code %d: no latency %d with its url %s in %s", code, w.lat, w.url, line)
		}
	}
}

// TestProfileFootCountsFields: the foot's "profile lines not shown: N
// of M fields" counts fields: N is M less the fields the view profiles
// in a line of their own and the constants it states once, at every
// budget. The lines of each kind's largest number and the group lines
// are no fields; on the old code they were counted as such, and the
// service log (../../testdata/captured/app-log.jsonl) at 4,000 tokens
// said 9 of 19 where 5 fields have no line (rev18 R3).
func TestProfileFootCountsFields(t *testing.T) {
	v, _ := viewOf(t, "../../testdata/captured/app-log.jsonl")
	foot := regexp.MustCompile(`^  profile lines not shown: (\d+) of (\d+) fields;`)
	fieldLine := regexp.MustCompile(`^  [a-z_.\[\]]+ \((string|number|boolean|object|array)`)
	for _, b := range []int{2000, 4000} {
		text := fillAt(t, v, b).Text
		shown, notShown, total := 0, -1, 0
		for _, l := range strings.Split(text, "\n") {
			switch {
			case fieldLine.MatchString(l):
				shown++
			case strings.HasPrefix(l, "  all ") && strings.Contains(l, " records have: "):
				shown += len(strings.Split(l[strings.Index(l, " have: ")+7:], ", "))
			}
			if m := foot.FindStringSubmatch(l); m != nil {
				notShown, _ = strconv.Atoi(m[1])
				total, _ = strconv.Atoi(m[2])
			}
		}
		if notShown < 0 {
			t.Fatalf("at %d: no foot of profile lines not shown:\n%s", b, text)
		}
		if notShown != total-shown {
			t.Errorf("at %d: the foot says %d of %d fields have no line; %d fields have one", b, notShown, total, shown)
		}
	}
}
