package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// serverLog is a server's JSON log, one record a line, as PostgreSQL's
// jsonlog writes it: per record a time, a process, its line number in
// the session, a severity and the message; an ERROR also has a state
// code, a detail and the statement.
func serverLog(n int) []byte {
	var b strings.Builder
	for i := 0; i < n; i++ {
		sev, extra := "LOG", ""
		msg := fmt.Sprintf("connection received: host=[local] port=%d", 40000+i)
		switch {
		case i == n/2:
			sev = "ERROR"
			msg = `duplicate key value violates unique constraint "customers_email_key"`
			extra = `,"state_code":"23505","detail":"Key (email)=(user42@example.test) already exists.","statement":"INSERT INTO customers (email) VALUES ('user42@example.test');"`
		case i == n/3:
			sev = "ERROR"
			msg = `syntax error at or near "SELEC"`
			extra = `,"state_code":"42601","statement":"SELEC * FROM orders;"`
		case i%7 == 3:
			msg = fmt.Sprintf("duration: %d.%03d ms  statement: SELECT * FROM orders WHERE id = %d;", i%50, i, i)
		}
		fmt.Fprintf(&b, `{"timestamp":"2026-11-26 07:27:%02d.%03d UTC","pid":%d,"line_num":%d,"error_severity":%q,"message":%q%s,"backend_type":"client backend"}`+"\n",
			i%60, i, 26000+i/10, i%10+1+i/40*30, sev, msg, extra)
	}
	return []byte(b.String())
}

// TestLogMessageInRows checks that a log's rows carry its message (the
// record is read by it, not by its state code), cut with its length
// stated past its width, and that the free text of a few records (an
// ERROR's detail and statement) is in their rows too. Before, the
// message column (over 60 characters: "long free text") and the detail
// and statement (in a few records) were left out of every row.
func TestLogMessageInRows(t *testing.T) {
	data := serverLog(300)
	fl := fillAt(t, buildView(t, inputOf(t, data, 3000)), 3000)
	var errRow string
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.Contains(l, "\tERROR\t") && strings.Contains(l, "customers_email_key") {
			errRow = l
		}
	}
	if errRow == "" {
		t.Fatalf("no ERROR row with its message:\n%s", fl.Text)
	}
	for _, want := range []string{"Key (email)=(user42@example.test) already exists.", "INSERT INTO customers (email) VALUES ('user42@example.test');"} {
		if !strings.Contains(errRow, want) {
			t.Errorf("the ERROR row lacks %q: %s", want, errRow)
		}
	}
	if !strings.Contains(fl.Text, "(message over 120)") {
		t.Errorf("the row header does not say how the message is cut:\n%s", fl.Text)
	}
}

// TestLineNumberIsNoMeasure checks that a per-record counter (a log's
// line_num, its line in a session) is no measure: no row is chosen as
// its outlier, and its profile line states no sum or mean. Before,
// line_num was read as a measure and rows were spent on its 2σ
// "outliers".
func TestLineNumberIsNoMeasure(t *testing.T) {
	data := serverLog(300)
	fl := fillAt(t, buildView(t, inputOf(t, data, 8000)), 8000)
	for _, l := range strings.Split(fl.Text, "\n") {
		if regexp.MustCompile(`line_num[= ][^\t;]*σ`).MatchString(l) {
			t.Errorf("a row chosen as an outlier of line_num: %s", l)
		}
	}
	for _, l := range strings.Split(fl.Text, "\n") {
		if strings.HasPrefix(l, "  line_num (") && strings.Contains(l, "mean") {
			t.Errorf("line_num summed as a measure: %s", l)
		}
	}
}

// TestStreamEndRows checks that the records just before the last one of
// a stream are rows (the end of a log is where it failed), each saying
// so. Before, only the very last record was.
func TestStreamEndRows(t *testing.T) {
	data := serverLog(300)
	fl := fillAt(t, buildView(t, inputOf(t, data, 4000)), 4000)
	for i := 295; i < 300; i++ {
		if !strings.Contains(fl.Text, fmt.Sprintf("\n%d\t", i)) {
			t.Errorf("record %d of the end is no row:\n%s", i, fl.Text)
		}
	}
	if !strings.Contains(fl.Text, "\t2nd from last") {
		t.Errorf("no row says it is of the end:\n%s", fl.Text)
	}
}

// TestFileNamedErrorIsNoAnomaly checks that a value naming a file (a
// path, a file name: src/errors.go) is no error state however its name
// reads: only values of states are anomalies. Before, ctags' tags in
// error.go (155 of 1,363) took 16 rows as "errors".
func TestFileNamedErrorIsNoAnomaly(t *testing.T) {
	var b strings.Builder
	files := []string{"src/main.go", "src/util.go", "src/errors.go", "src/io.go", "src/net.go", "src/db.go"}
	for i := 0; i < 200; i++ {
		st := "ok"
		if i == 150 {
			st = "failed"
		}
		f := files[i%len(files)]
		if f == "src/errors.go" && i > 20 {
			f = "src/main.go"
		}
		fmt.Fprintf(&b, `{"id":%d,"src":%q,"status":%q}`+"\n", i, f, st)
	}
	fl := fillAt(t, buildView(t, inputOf(t, []byte(b.String()), 4000)), 4000)
	if !strings.Contains(fl.Text, "status=failed (1 of 200)") {
		t.Errorf("the failed record is not chosen:\n%s", fl.Text)
	}
	if strings.Contains(fl.Text, "src=src/errors.go (") {
		t.Errorf("a file named errors.go chosen as an error:\n%s", fl.Text)
	}
}

// traceEvents is a build tool's trace (cmake --trace-format=json-v2): per
// command its depth (frame, with global_frame repeating it), its file,
// line and command; a macro's 27 commands run at depth 5, one after the
// other; a few multi-line commands have a line_end.
func traceEvents() []byte {
	var b strings.Builder
	for i := 0; i < 1500; i++ {
		frame, kind := 2+i%3, "call"
		switch {
		case i < 20:
			frame = 1
		case i >= 700 && i < 727:
			frame, kind = 5, "macro"
		}
		end := ""
		if i%12 == 5 {
			end = fmt.Sprintf(`,"line_end":%d`, i%90+3)
		}
		fmt.Fprintf(&b, `{"cmd":"set","file":"/usr/share/cmake/M%d.cmake","line":%d%s,"frame":%d,"global_frame":%d,"kind":%q,"time":%d.5}`+"\n", i%30, i%90+1, end, frame, frame, kind, 1795688527+i)
	}
	return []byte(b.String())
}

// TestTraceReasons checks the reasons of rows over a trace: a field
// repeating another in every record (global_frame) is no reason of its
// own, a run of records with a rare value is stood for by its first two,
// and a position a few records have (line_end) is no "field most lack".
// Before, the 27 commands at depth 5 took 12 rows, each with three
// reasons (frame rare, global_frame rare, frame 2.3σ from the mean), and
// line_end 12 more. (A depth's rare values stay reasons: the commands of
// depth 1 are the project's own.)
func TestTraceReasons(t *testing.T) {
	fl := fillAt(t, buildView(t, inputOf(t, traceEvents(), 8000)), 8000)
	for _, bad := range []string{"rare global_frame", "has line_end"} {
		if strings.Contains(fl.Text, bad) {
			t.Errorf("a row says %q:\n%s", bad, fl.Text)
		}
	}
	n := strings.Count(fl.Text, "rare kind (")
	if n != 2 {
		t.Errorf("%d rows for the run of kind=macro, want its first two:\n%s", n, fl.Text)
	}
}
