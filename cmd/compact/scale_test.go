package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/view"
	"github.com/toolcompact/compact/schemas"
)

// BenchmarkScale measures whole processes on generated JSON of the sizes
// in $COMPACT_SCALE_MB (comma-separated MB; the benchmark skips without
// it, so that CI, which is small, never runs it):
//
//	COMPACT_SCALE_MB=10,100,500 go test ./cmd/compact -run '^$' -bench Scale -benchtime 1x -timeout 60m
//
// For each size, in one run: compact run --budget 8000 with a store,
// against one full pass of jq (jq -c ., when jq is installed) and of gojq
// (decode, run ".", encode: the library in a child process, since gojq's
// command is not installable here); the peak RSS of each process; the
// stages of compact's work measured in process on the same bytes (hash,
// shape, level 1, exact count of level 1's output, and the rest of Run:
// the level-2 view and the store); and the latency of queries on the
// stored artifact in new processes: a slice (the first query: the index
// was written when the artifact was stored), another slice, and a
// streamed jq filter; and compact run with the input from a pipe.
// Metrics are seconds (-s), MB of peak RSS (-MB) and ratios (x-).
func BenchmarkScale(b *testing.B) {
	spec := os.Getenv("COMPACT_SCALE_MB")
	if spec == "" {
		b.Skip("set COMPACT_SCALE_MB=10,100,500 to run the scale benchmark")
	}
	dir := b.TempDir()
	bin := filepath.Join(dir, "compact")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	jq, _ := exec.LookPath("jq")
	for _, f := range strings.Split(spec, ",") {
		mb, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || mb <= 0 {
			b.Fatalf("COMPACT_SCALE_MB: %q is not a size in MB", f)
		}
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			input := filepath.Join(dir, fmt.Sprintf("in%d.json", mb))
			if err := writeScaleInput(input, int64(mb)<<20); err != nil {
				b.Fatal(err)
			}
			defer os.Remove(input)
			for b.Loop() {
				store := filepath.Join(dir, fmt.Sprintf("store%d", mb))
				os.RemoveAll(store)
				out, c := runProcess(b, bin, "run", "--store", store, "--budget", "8000", input)
				m := regexp.MustCompile(`artifact:([0-9a-f]{12,64})`).FindStringSubmatch(out)
				if m == nil {
					b.Fatalf("compact run did not store an artifact:\n%.500s", out)
				}
				report(b, "compact", c)
				size := float64(int64(mb) << 20)
				b.ReportMetric(size/1e6/c.cpu.Seconds(), "compact-MB/cpu-s")
				b.ReportMetric(size/1e6/c.wall.Seconds(), "compact-MB/s")
				b.ReportMetric(float64(c.rss)/size, "x-input-compact-RSS")
				if jq != "" {
					_, j := runProcess(b, jq, "-c", ".", input)
					report(b, "jq", j)
					b.ReportMetric(c.wall.Seconds()/j.wall.Seconds(), "x-jq-wall")
					b.ReportMetric(c.cpu.Seconds()/j.cpu.Seconds(), "x-jq-cpu")
				}
				cmd := exec.Command(os.Args[0], "-test.run=^TestScaleGojqPass$")
				cmd.Env = append(os.Environ(), "COMPACT_SCALE_GOJQ="+input)
				g := measure(b, cmd)
				report(b, "gojq", g)
				b.ReportMetric(c.wall.Seconds()/g.wall.Seconds(), "x-gojq-wall")
				_, s1 := runProcess(b, bin, "artifact", "slice", "--store", store, m[1], "--offset", "1000", "--limit", "5")
				_, s2 := runProcess(b, bin, "artifact", "slice", "--store", store, m[1], "--offset", "2000", "--limit", "5")
				qc := exec.Command(bin, "artifact", "query", "--store", store, m[1], "--jq", `.items[] | select(.id == 12345) | .name`)
				q := measure(b, qc)
				b.ReportMetric(s1.wall.Seconds(), "slice1-s")
				b.ReportMetric(s1.cpu.Seconds(), "slice1-cpu-s")
				b.ReportMetric(float64(s1.rss)/1e6, "slice1-MB")
				b.ReportMetric(s2.wall.Seconds(), "slice2-s")
				b.ReportMetric(s2.cpu.Seconds(), "slice2-cpu-s")
				b.ReportMetric(float64(s2.rss)/1e6, "slice2-MB")
				b.ReportMetric(q.wall.Seconds(), "jqstream-s")
				b.ReportMetric(q.cpu.Seconds(), "jqstream-cpu-s")
				b.ReportMetric(float64(q.rss)/1e6, "jqstream-MB")
				b.ReportMetric(float64(q.rss)/size, "x-input-jqstream-RSS")
				// The same run from a pipe: spooled into the store
				// while hashed, committed as the artifact (one write).
				pipe := exec.Command(bin, "run", "--store", store+"-pipe", "--budget", "8000", "-")
				in, err := os.Open(input)
				if err != nil {
					b.Fatal(err)
				}
				pipe.Stdin = struct{ io.Reader }{in} // a pipe, not a file
				pc := measure(b, pipe)
				in.Close()
				os.RemoveAll(store + "-pipe")
				report(b, "compact-pipe", pc)
				stages(b, input)
			}
		})
	}
}

// TestScaleGojqPass is BenchmarkScale's gojq pass, in a child process:
// decode the file, run ".", encode every output, as gojq -c . does.
func TestScaleGojqPass(t *testing.T) {
	path := os.Getenv("COMPACT_SCALE_GOJQ")
	if path == "" {
		t.Skip("the child process of BenchmarkScale")
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	q, err := gojq.Parse(".")
	if err != nil {
		t.Fatal(err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<20))
	dec.UseNumber()
	w := bufio.NewWriter(io.Discard)
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		iter := code.Run(v)
		for {
			out, ok := iter.Next()
			if !ok {
				break
			}
			if err, ok := out.(error); ok {
				t.Fatal(err)
			}
			b, err := gojq.Marshal(out)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(b)
			w.WriteByte('\n')
		}
	}
	w.Flush()
}

// procStats are a finished process's wall time, CPU time (user and
// system) and peak RSS in bytes.
type procStats struct {
	wall, cpu time.Duration
	rss       int64
}

func runProcess(b *testing.B, name string, args ...string) (string, procStats) {
	b.Helper()
	var out bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stdout = &out
	st := measureInto(b, cmd, &out)
	return out.String(), st
}

func measure(b *testing.B, cmd *exec.Cmd) procStats {
	b.Helper()
	return measureInto(b, cmd, nil)
}

func measureInto(b *testing.B, cmd *exec.Cmd, out *bytes.Buffer) procStats {
	b.Helper()
	if out == nil {
		cmd.Stdout = io.Discard
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		b.Fatalf("%s: %v", strings.Join(cmd.Args, " "), err)
	}
	// The peak RSS is read from /proc (VmHWM of the process's own
	// memory map) while it runs: the rusage of a child of this process
	// counts this process's own peak too, as the child starts in its
	// address space (os/exec's vfork) and exec keeps that high-water mark.
	done := make(chan struct{})
	var hwm int64
	polled := make(chan struct{})
	go func() {
		defer close(polled)
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		for {
			if v := vmHWM(status); v > hwm {
				hwm = v
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	<-polled
	if err != nil {
		b.Fatalf("%s: %v\n%.2000s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	st := procStats{wall: time.Since(start), cpu: cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), rss: hwm}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && st.rss == 0 {
		st.rss = int64(ru.Maxrss) * 1024 // KB on Linux; an upper bound (see above)
	}
	return st
}

// vmHWM reads the peak resident set size, in bytes, from a
// /proc/PID/status file; 0 when it cannot.
func vmHWM(status string) int64 {
	b, err := os.ReadFile(status)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

func report(b *testing.B, name string, s procStats) {
	b.ReportMetric(s.wall.Seconds(), name+"-s")
	b.ReportMetric(s.cpu.Seconds(), name+"-cpu-s")
	b.ReportMetric(float64(s.rss)/1e6, name+"-MB")
}

// stages times the parts of compact's work on the input's bytes in this
// process, one after another: read (the file into memory), hash
// (SHA-256), shape (detection: counts), L1 (the declarative rules run to
// the end, as on an output that fits; at level 2 the pipeline stops them
// once over the budget), store (Put into a directory store: write and
// fsync), index (the query index level 2 writes beside the view), view
// build (profile, candidates, rows), view fill (exact tokens of what is
// shown, render), and the whole Pipeline.Run at level 2 (stage-run-s).
// tokens-all is what counting level 1's whole output exactly would cost.
func stages(b *testing.B, input string) {
	b.Helper()
	ctx := context.Background()
	t0 := time.Now()
	data, err := os.ReadFile(input)
	if err != nil {
		b.Fatal(err)
	}
	t1 := time.Now()
	sum := sha256.Sum256(data)
	t2 := time.Now()
	shape, err := budget.DetectShape(data, nil)
	if err != nil {
		b.Fatal(err)
	}
	t3 := time.Now()
	out, err := budget.Declarative().Compact(ctx, budget.Request{Input: data, Rules: budget.Rules{Defaults: true}, Shape: &shape})
	if err != nil {
		b.Fatal(err)
	}
	t4 := time.Now()
	c, _ := budget.NewCounter("")
	c.Count(string(out.Content))
	t5 := time.Now()
	out = budget.Output{}
	dir := b.TempDir()
	ds, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		b.Fatal(err)
	}
	t6 := time.Now()
	if _, _, err := ds.Put(ctx, bytes.NewReader(data), budget.Meta{Tool: "bench"}); err != nil {
		b.Fatal(err)
	}
	t7 := time.Now()
	if _, err := budget.EncodeIndex(hex.EncodeToString(sum[:]), data, shape); err != nil {
		b.Fatal(err)
	}
	t8 := time.Now()
	vin := view.Input{Tool: "bench", ContentType: shape.ContentType, Format: shape.Format, Data: data,
		Handle: "0123456789ab", Budget: 8000, TokensBefore: int(budget.Estimate(data)), BeforeEstimated: true}
	for _, col := range shape.Collections {
		vin.Collections = append(vin.Collections, view.Collection{Path: col.Path, Kind: col.Kind, Count: col.Count,
			Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, shape, col.Path, fn) }})
	}
	v, err := view.Build(vin)
	if err != nil {
		b.Fatal(err)
	}
	t9 := time.Now()
	if _, err := v.Fill(c, 8000); err != nil {
		b.Fatal(err)
	}
	t10 := time.Now()
	p := budget.NewPipeline(c, budget.WithStore(ds))
	res, err := p.Run(ctx, budget.Input{Tool: "bench", Data: data, Budget: 8000, Rules: budget.Rules{Defaults: true}})
	if err != nil || res.Level != schemas.LevelArtifact {
		b.Fatalf("Run: level %s, %v", res.Level, err)
	}
	t11 := time.Now()
	b.ReportMetric(t1.Sub(t0).Seconds(), "stage-read-s")
	b.ReportMetric(t2.Sub(t1).Seconds(), "stage-hash-s")
	b.ReportMetric(t3.Sub(t2).Seconds(), "stage-shape-s")
	b.ReportMetric(t4.Sub(t3).Seconds(), "stage-L1-s")
	b.ReportMetric(t5.Sub(t4).Seconds(), "stage-tokens-all-s")
	b.ReportMetric(t7.Sub(t6).Seconds(), "stage-store-s")
	b.ReportMetric(t8.Sub(t7).Seconds(), "stage-index-s")
	b.ReportMetric(t9.Sub(t8).Seconds(), "stage-view-build-s")
	b.ReportMetric(t10.Sub(t9).Seconds(), "stage-view-fill-s")
	b.ReportMetric(t11.Sub(t10).Seconds(), "stage-run-s")
}

// writeScaleInput writes {"kind":"List","items":[...]} of about size
// bytes of records of eight fields, deterministic.
func writeScaleInput(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"kind":"List","items":[`)
	states := []string{"open", "closed", "merged"}
	var n int64
	for i := 0; n < size; i++ {
		if i > 0 {
			w.WriteByte(',')
		}
		s := fmt.Sprintf(`{"id":%d,"name":"item-%d","state":"%s","owner":{"login":"user%d","id":%d},"score":%d.%d,"labels":["a","b%d"],"body":"Lorem ipsum dolor sit amet %d, consectetur adipiscing elit","url":"https://example.com/items/%d"}`,
			i, i, states[i%3], i%97, i%97, i%1000, i%10, i%5, i, i)
		w.WriteString(s)
		n += int64(len(s)) + 1
	}
	w.WriteString("]}\n")
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// BenchmarkStartup measures a whole compact run on a 1 KB input (process
// start, registry, token counter, output) against jq . on the same file,
// alternating, in one run:
//
//	go test ./cmd/compact -run '^$' -bench Startup -benchtime 20x
//
// compact-ms and jq-ms are median wall times, -cpu-ms median CPU times
// (steadier on a loaded machine); x-jq is the ratio of the wall times.
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	bin := filepath.Join(dir, "compact")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	var in strings.Builder
	in.WriteString("[")
	for i := 0; in.Len() < 900; i++ {
		if i > 0 {
			in.WriteString(",")
		}
		fmt.Fprintf(&in, `{"id":%d,"name":"pod-%d","status":"Running"}`, i, i)
	}
	in.WriteString("]")
	file := filepath.Join(dir, "in.json")
	if err := os.WriteFile(file, []byte(in.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	jq, _ := exec.LookPath("jq")
	var cs, js, ccpu, jcpu []float64
	for b.Loop() {
		_, c := runProcess(b, bin, "run", "--store", "off", file)
		cs, ccpu = append(cs, c.wall.Seconds()*1e3), append(ccpu, c.cpu.Seconds()*1e3)
		if jq != "" {
			_, j := runProcess(b, jq, ".", file)
			js, jcpu = append(js, j.wall.Seconds()*1e3), append(jcpu, j.cpu.Seconds()*1e3)
		}
	}
	b.ReportMetric(median(cs), "compact-ms")
	b.ReportMetric(median(ccpu), "compact-cpu-ms")
	if len(js) > 0 {
		b.ReportMetric(median(js), "jq-ms")
		b.ReportMetric(median(jcpu), "jq-cpu-ms")
		b.ReportMetric(median(cs)/median(js), "x-jq")
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
