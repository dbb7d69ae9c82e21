package view_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// exifLike returns n records describing files of several kinds, as
// exiftool -json does: a few members every record has, then the tags of
// its kind (a PNG's ColorType, a PDF's PageCount and Producer, a
// photo's Make and Model), 48 tag names in all, each record holding 8
// to 10 of them; the records at warnAt have a Warning, the last of them
// also an Encryption.
func exifLike(n int, warnAt ...int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		kind := []string{"PNG", "PDF", "JPEG", "SVG"}[i%4]
		fmt.Fprintf(&b, `{"SourceFile":"/data/f%03d.%s","FileName":"f%03d.%s","FileType":%q,"FileSize":"%d kB"`, i, strings.ToLower(kind), i, strings.ToLower(kind), kind, 10+i%37)
		for j := range 6 {
			// Tags of the kind, named by kind and group: 4 kinds × 12.
			fmt.Fprintf(&b, `,"%s%sTag%d":%d`, kind, []string{"Color", "Page", "Exif", "Xml"}[i%4], (i/4+j)%12, i%5)
		}
		switch kind {
		case "PDF":
			fmt.Fprintf(&b, `,"PageCount":%d,"Producer":"FPDF 1.7"`, 1+i%9)
		case "JPEG":
			if i%40 == 2 {
				b.WriteString(`,"Make":"Panasonic","Model":"DMC-LX2"`)
			}
		}
		for w, at := range warnAt {
			if i == at {
				fmt.Fprintf(&b, `,"Warning":"Can't decrypt (no document ID %d)"`, w)
				if w == len(warnAt)-1 {
					b.WriteString(`,"Encryption":"Standard V1.2 (40-bit)"`)
				}
			}
		}
		b.WriteString("}")
	}
	b.WriteString("]\n")
	return []byte(b.String())
}

// TestManyKindsOfRecords: records of several kinds, each with the tags
// of its kind (48 names over 320 records, a record holding a fifth of
// them), are records of fields, not a map of names: a tag first seen
// late in the output (the Warning of records 301 and 313) gets its own
// profile line with exact counts. On the old code the records' own
// object was read as a map once it had 32 sparse names, and every name
// seen after that was only counted by name: no line, no row, no
// column for Warning, Model or Make.
func TestManyKindsOfRecords(t *testing.T) {
	data := exifLike(320, 301, 313)
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 8000)
	for _, want := range []string{
		`  Warning (string, in 2 of 320 records): Can't decrypt (no document ID 0) 1, Can't decrypt (no document ID 1) 1, missing 318`,
		`  Model (string, in 8 of 320 records): DMC-LX2 8, missing 312`,
	} {
		if !strings.Contains(f.Text, want) {
			t.Errorf("no line %q:\n%s", want, f.Text)
		}
	}
}

// TestWarnedRecordsAreAnomalies: a field named like a warning or an
// error that few records have marks them as anomalies: both records
// with a Warning are rows at 2,000 tokens, each saying it, and the
// row's other cell shows the record's rarest members first (its
// Warning, its Encryption), not the tags of its kind. On the old code
// the rows of "a field most records lack" were the first records in
// record order having any such field (nearly every record, in records
// of many kinds), and the other cell the first four members it had.
func TestWarnedRecordsAreAnomalies(t *testing.T) {
	data := exifLike(320, 301, 313)
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 2000)
	for _, rec := range []int{301, 313} {
		m := regexp.MustCompile(fmt.Sprintf(`(?m)^%d\t[^\n]*f%03d\.pdf\t.*\t([^\t]*)\t([^\t]*)$`, rec, rec)).FindStringSubmatch(f.Text)
		if m == nil {
			t.Fatalf("no row %d:\n%s", rec, f.Text)
		}
		if !strings.Contains(m[2], "has Warning (2 of 320)") && !strings.Contains(m[2], "has Encryption") {
			t.Errorf("row %d's reason is %q", rec, m[2])
		}
		if !strings.HasPrefix(m[1], "Warning=Can't decrypt") && !strings.HasPrefix(m[1], "Encryption=Standard") {
			t.Errorf("row %d's other cell does not lead with its rarest members: %q", rec, m[1])
		}
		if !strings.Contains(m[1], "Warning=Can't decrypt") {
			t.Errorf("row %d's other cell has no Warning: %q", rec, m[1])
		}
	}
}

// lintReport returns an html-validate-like report: n files, each with
// its messages (ruleId of few values, severity 2 in every one), its
// errorCount and the page's source, long enough that a few rows fill
// 2,000 tokens.
func lintReport(n int) []byte {
	rules := []string{"attr-quotes", "no-deprecated-attr", "prefer-tbody", "valid-id", "no-inline-style"}
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"filePath":"/srv/html/page%02d.html","messages":[`, i)
		m := 3 + i%7
		for j := range m {
			if j > 0 {
				b.WriteString(",")
			}
			r := rules[(j*j+i)%3]
			if i == 13 && j == 1 {
				r = "no-inline-style"
			}
			if j == 2 {
				r = fmt.Sprintf("rare-rule-%02d", i%15) // each on 2 pages
			}
			fmt.Fprintf(&b, `{"ruleId":%q,"severity":2,"message":"problem %d of page %d","line":%d,"column":%d}`, r, j, i, 10+j*7, 1+j%5)
		}
		fmt.Fprintf(&b, `],"errorCount":%d,"warningCount":0,"source":%q}`, m, strings.Repeat("<p>text of the page "+fmt.Sprint(i)+"</p>\n", 40))
	}
	b.WriteString("]\n")
	return []byte(b.String())
}

// TestCensusCell: a row's cell of a field of few values inside the
// record's arrays counts the record's values by value ("prefer-tbody×3,
// attr-quotes×2,…"), as jq counts them, instead of listing its first
// four: which rules a file breaks and how often. On the old code the
// cell was the first four values ("attr-quotes,prefer-tbody,…").
func TestCensusCell(t *testing.T) {
	data := lintReport(30)
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 8000)
	m := regexp.MustCompile(`(?m)^13\t/srv/html/page13\.html\t.*`).FindString(f.Text)
	if m == "" {
		t.Fatalf("no row 13:\n%s", f.Text)
	}
	got := jq(t, data, `.[13].messages | group_by(.ruleId) | map({r: .[0].ruleId, n: length}) | sort_by(-.n, .r) | map("\(.r)×\(.n)") | join(",")`)[0].(string)
	if !strings.Contains(m, "\t"+got+"\t") {
		t.Errorf("row 13 has no census %q:\n%s", got, m)
	}
}

// TestSameValueInArrays: a field inside arrays whose every value is one
// value in every record (each message's severity 2) is stated once with
// its number of values, and is no column. On the old code it was a
// column of "2,2,2,2,…" cells, and its line waited among the profile's
// other lines.
func TestSameValueInArrays(t *testing.T) {
	data := lintReport(30)
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 2000)
	n := jq(t, data, `[.[].messages[].severity] | length`)[0]
	want := fmt.Sprintf("messages[].severity=2 (%v values)", n)
	if !strings.Contains(f.Text, "  the same value everywhere, in all 30 records: "+want) {
		t.Errorf("no %q:\n%s", want, f.Text)
	}
	if strings.Contains(f.Text, "\tmessages[].severity\t") {
		t.Errorf("severity is a column:\n%s", f.Text)
	}
}

// TestSmallIndexEarly: a collection of a few dozen records whose rows
// are wide lists its records in its index (identity and its deciding
// field, errorCount, as jq gives them) before the rows, its lines being
// short (720 bytes in all; a longer index of at most 128 records comes
// right after the profile's other lines): every page at 2,000 tokens
// ("how many errors has page 17" is read off one line each). On the old
// code the index came after the other extremes and the rare values
// among many values: no line at 2,000 tokens, 2 at 3,500.
func TestSmallIndexEarly(t *testing.T) {
	data := lintReport(30)
	v, _ := viewOfData(t, data)
	for _, b := range []int{2000, 3500, 4000} {
		f := fillAt(t, v, b)
		n := 0
		for i := range 30 {
			e := jq(t, data, fmt.Sprintf(`.[%d].errorCount`, i))[0]
			if strings.Contains(f.Text, fmt.Sprintf("\n/srv/html/page%02d.html\t%v\n", i, e)) {
				n++
			}
		}
		if want := map[int]int{2000: 30, 3500: 30, 4000: 30}[b]; n < want || !strings.Contains(f.Text, "(tab-separated: filePath, errorCount):\n") {
			t.Errorf("at %d tokens: %d index lines, want at least %d:\n%s", b, n, want, f.Text)
		}
	}
}

// TestLargestOfEachKind: trace events of several kinds (name) with a
// duration: the record with the largest dur of each common kind is a
// row ("largest dur among name=InstantiateFunction"), the one jq's
// max_by gives, also for a kind whose durations are all far below the
// other kinds' (none of them among the largest 60 durations, the
// outliers and the overall extremes). On the old code only the
// overall extremes and outliers were rows: the slowest instantiation
// was never shown.
func TestLargestOfEachKind(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"traceEvents":[`)
	kinds := []string{"Source", "InstantiateFunction", "ParseClass", "Source", "InstantiateFunction", "CodeGen Function"}
	for i := range 1200 {
		if i > 0 {
			b.WriteString(",")
		}
		k := kinds[i%len(kinds)]
		dur := 100 + (i*37)%1201 // distinct: a unique largest per kind
		switch k {
		case "Source":
			dur = 200000 + (i*7919)%90000
		case "ParseClass":
			dur = 3000 + (i*13)%1201
		}
		fmt.Fprintf(&b, `{"pid":1,"tid":1,"ph":"X","ts":%d,"dur":%d,"name":%q,"args":{"detail":"%s #%d"}}`, i*300, dur, k, strings.ToLower(strings.ReplaceAll(k, " ", "_")), i)
	}
	b.WriteString(`],"beginningOfTime":1795688487963911}`)
	data := []byte(b.String())
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 4000)
	for _, k := range []string{"InstantiateFunction", "ParseClass"} {
		detail := jq(t, data, fmt.Sprintf(`[.traceEvents[] | select(.name == %q)] | max_by(.dur) | .args.detail`, k))[0].(string)
		re := regexp.MustCompile(`(?m)^\d+\t.*\t` + regexp.QuoteMeta(detail) + `\t.*largest dur among name=` + k + `(;|$)`)
		if !re.MatchString(f.Text) {
			t.Errorf("no row of %s saying it is the largest dur among name=%s:\n%s", detail, k, f.Text)
		}
	}
}

// probeLike returns an ffprobe-like document: many frames, each with
// many fields, then the format object with its scalars and a small
// object of tags (the file's title).
func probeLike() []byte {
	var b strings.Builder
	b.WriteString(`{"frames":[`)
	for i := range 600 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"media_type":%q,"stream_index":%d,"key_frame":%d,"pts":%d,"pts_time":"%d.%06d","pkt_duration":%d,"pkt_pos":"%d","pkt_size":"%d"`,
			[]string{"video", "audio"}[i%2], i%2, b2i(i%25 == 0), i/2*512, i/50, (i/2%25)*40000, 512+i%2*512, 1000+i*1777, 3000+i*37%200)
		for j := range 12 {
			fmt.Fprintf(&b, `,"field_%02d":%d`, j, (i*(j+3))%(j+2))
		}
		b.WriteString("}")
	}
	b.WriteString(`],"format":{"filename":"clip.mp4","nb_streams":2,"format_name":"mov,mp4,m4a,3gp,3g2,mj2","duration":"12.000000","size":"1278906","bit_rate":"852604","probe_score":100,`)
	b.WriteString("\n      \"tags\": {\n            \"major_brand\": \"isom\",\n            \"minor_version\": \"512\",\n            \"compatible_brands\": \"isomiso2avc1mp41\",\n            \"title\": \"compact bench sample\",\n            \"encoder\": \"Lavf59.27.100\"\n        }}}\n")
	return []byte(b.String())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestFactsNotRestated: an object outside the collections is stated by
// its summary line, its members whose values the summary states whole
// get no line of their own, and a small object inside it (the file's
// tags: its title) is shown inline with the first facts, at a budget
// the frames' profile otherwise fills. On the old code every member was
// stated twice and the tags object waited for everything else (its
// title was not in the view at 1,000 tokens, nor at 4,000 on a real
// ffprobe output).
func TestFactsNotRestated(t *testing.T) {
	data := probeLike()
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 1000)
	if !strings.Contains(f.Text, `  format.tags: {"major_brand":"isom","minor_version":"512","compatible_brands":"isomiso2avc1mp41","title":"compact bench sample","encoder":"Lavf59.27.100"}`+"\n") {
		t.Errorf("no tags inline:\n%s", f.Text)
	}
	if !strings.Contains(f.Text, "  format: object of 8 members") || strings.Contains(f.Text, "  format.filename: ") || strings.Contains(f.Text, "  format.probe_score: ") {
		t.Errorf("the format's members are stated twice, or not at all:\n%s", f.Text)
	}
}

// TestIndexSkipsDeterminedField: the index lines a frame by its time,
// never by its byte position (pkt_pos, unique by chance: no identity),
// and do not spend a column on a field another column gives (the
// duration each media type has) while a telling one is left (the
// frame's size). On the old code the identity was pkt_pos and the
// columns media_type and pkt_duration.
func TestIndexSkipsDeterminedField(t *testing.T) {
	v, _ := viewOfData(t, probeLike())
	f := fillAt(t, v, 8000)
	if !strings.Contains(f.Text, "index of .frames, the first ") || !strings.Contains(f.Text, " records in record order, one per line (tab-separated: pts_time, media_type, pkt_size):\n") {
		t.Errorf("the index is not by pts_time with media_type and pkt_size:\n%s", f.Text)
	}
	if strings.Contains(f.Text, "identity: pkt_pos") {
		t.Errorf("pkt_pos is the identity")
	}
}

// TestArraysOfObjectsAreItems: a stream whose values are arrays of
// objects (gcc -fdiagnostics-format=json: one array of diagnostics per
// translation unit) is viewed by its items: a line states the values'
// exact count and their items' (per value and in all, as jq counts
// them), and the items are a collection of their own whose rows are
// single diagnostics (the last one with its message), whose profile
// counts them by kind (counted here as the stream is written). On the old
// code the rows were whole arrays, each cell a list cut at four items.
func TestArraysOfObjectsAreItems(t *testing.T) {
	var b strings.Builder
	n, errs, last := 0, 0, ""
	for u := range 6 {
		b.WriteString("[")
		for d := range 5 + u*3 {
			if d > 0 {
				b.WriteString(",")
			}
			kind := []string{"warning", "error", "warning"}[(u+d)%3]
			last = fmt.Sprintf("problem %d in unit %d: %s something happened here", d, u, kind)
			fmt.Fprintf(&b, `{"kind":%q,"message":%q,"locations":[{"caret":{"file":"unit%d.c","line":%d,"column":%d}}]}`, kind, last, u, 10+d*3, 1+d%7)
			n++
			errs += b2i(kind == "error")
		}
		b.WriteString("]\n")
	}
	data := []byte(b.String())
	v, _ := viewOfData(t, data)
	f := fillAt(t, v, 2000)
	want := fmt.Sprintf("collection . (jsonl): 6 records, each an array of objects (5-20 items, %d in all): the items are the collection .[] below\n", n)
	if !strings.Contains(f.Text, want) {
		t.Errorf("no %q:\n%s", want, f.Text)
	}
	if !strings.Contains(f.Text, fmt.Sprintf("collection .[] (array): %d records; ", n)) {
		t.Errorf("the items are not a collection:\n%s", f.Text)
	}
	if !regexp.MustCompile(fmt.Sprintf(`(?m)^%d\t(.*\t)?%s\t.*last$`, n-1, regexp.QuoteMeta(last))).MatchString(f.Text) {
		t.Errorf("no row of the last diagnostic %q:\n%s", last, f.Text)
	}
	if !strings.Contains(f.Text, fmt.Sprintf("\n  kind (string): warning %d, error %d\n", n-errs, errs)) {
		t.Errorf("no census of kind (error %v):\n%s", errs, f.Text)
	}
}
