package view

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// profileBenchInputs are the records BenchmarkProfile grows: captured
// outputs' collections (by the path of their array: "" for a top-level
// array, "items" for a member; a .jsonl file's lines) and generated
// records like budget's benchmark records.
var profileBenchInputs = []struct{ name, file, member string }{
	{"kubectl-pods", "kubectl-pods.json", "items"},
	{"github-issues", "github-issues.json", ""},
	{"app-log", "app-log.jsonl", ""},
	{"records", "", ""},
}

// benchRecordsOf returns the records of a captured output (or generated
// ones when file is "").
func benchRecordsOf(tb testing.TB, file, member string) [][]byte {
	var recs [][]byte
	if file == "" {
		for i := 0; i < 1000; i++ {
			recs = append(recs, fmt.Appendf(nil, `{"id":%d,"name":"user number %d","email":"u%d@example.com","active":%t,"score":%d.5,`+
				`"tags":["alpha","beta"],"created_at":"2024-01-02T03:04:%02dZ","url":"https://example.com/users/%d",`+
				`"note":"a longer free-text note about this user, to make the records realistic","parent":{"id":%d,"kind":"team"}}`,
				i, i, i, i%3 == 0, i%1000, i%60, i, i%50))
		}
		return recs
	}
	data := readCapture(tb, file)
	if bytes.HasSuffix([]byte(file), []byte(".jsonl")) {
		for _, l := range bytes.Split(data, []byte("\n")) {
			if l = bytes.TrimSpace(l); len(l) > 0 {
				recs = append(recs, l)
			}
		}
		return recs
	}
	s := jscan{d: data}
	if member != "" {
		s.eachMember(func(name string) {
			if name == member {
				s.elements(func(v []byte) { recs = append(recs, v) })
			}
		})
	} else {
		s.elements(func(v []byte) { recs = append(recs, v) })
	}
	if len(recs) == 0 {
		tb.Fatalf("%s: no records at %q", file, member)
	}
	return recs
}

// scalarValues counts the scalar values of a JSON text (the values the
// profile takes statistics of).
func scalarValues(raw []byte) int {
	s := jscan{d: raw}
	n := 0
	var walk func()
	walk = func() {
		s.ws()
		switch s.peek() {
		case '{':
			s.eachMemberName(func([]byte) { walk() })
		case '[':
			s.pos++
			for {
				s.ws()
				if s.peek() == ']' || s.pos >= len(s.d) {
					s.pos++
					return
				}
				walk()
				s.ws()
				if s.peek() == ',' {
					s.pos++
				}
			}
		default:
			s.skipValue()
			n++
		}
	}
	walk()
	return n
}

// cpuTime is the CPU time of the process so far (user and system, all
// threads): on a shared machine the wall-clock time per value depends on
// the neighbours, the CPU time much less.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkProfile measures the profile's one pass over the records with
// the tracker of the selection of rows, as addRecords runs it
// (profiledColl: every field profiled, no rules), over captured records
// repeated to 4 MB ($COMPACT_PROFILE_MB): ns/value is the time per scalar
// value of the records (the cost the view's target is stated in), and
// cpu-ns/value the same by the process's CPU time.
//
//	go test ./budget/view -run '^$' -bench Profile -benchtime 5x
func BenchmarkProfile(b *testing.B) { benchProfile(b, false) }

// BenchmarkProfileWalk is BenchmarkProfile's floor: the same records only
// walked (skipValue of the whole array), nothing counted.
func BenchmarkProfileWalk(b *testing.B) { benchProfile(b, true) }

func benchProfile(b *testing.B, walkOnly bool) {
	size := 4 << 20
	if s := os.Getenv("COMPACT_PROFILE_MB"); s != "" {
		mb, err := strconv.Atoi(s)
		if err != nil || mb <= 0 {
			b.Fatalf("COMPACT_PROFILE_MB=%q: want a size in MB", s)
		}
		size = mb << 20
	}
	for _, pi := range profileBenchInputs {
		recs := benchRecordsOf(b, pi.file, pi.member)
		var data bytes.Buffer
		data.WriteByte('[')
		n, values := 0, 0
		for data.Len() < size {
			for _, r := range recs {
				if n > 0 {
					data.WriteByte(',')
				}
				data.Write(r)
				values += scalarValues(r)
				n++
			}
		}
		data.WriteByte(']')
		in := Input{Tool: "bench", ContentType: "application/json", Format: "json", Data: data.Bytes(), Handle: "0123456789ab", Budget: 4000}
		c := Collection{Path: ".", Kind: "array", Count: n, Text: data.Bytes()}
		in.Collections = []Collection{c}
		b.Run(pi.name, func(b *testing.B) {
			b.SetBytes(int64(data.Len()))
			c0 := cpuTime()
			for b.Loop() {
				if walkOnly {
					// The floor: the records' text walked, nothing
					// counted.
					s := jscan{d: c.Text}
					s.skipValue()
					continue
				}
				profiledColl(b, in, c)
			}
			cpu := cpuTime() - c0
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(values), "ns/value")
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N)/float64(values), "cpu-ns/value")
			b.ReportMetric(float64(values), "values")
		})
	}
}
