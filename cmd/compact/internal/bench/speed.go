package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/registry"
)

// SpeedOptions configure RunSpeed.
type SpeedOptions struct {
	// BenchTime is the time each benchmark runs (1s when 0).
	BenchTime time.Duration
	// JSON prints the results as JSON.
	JSON bool
	// Only runs the benchmarks whose name contains it ("" runs all).
	Only string
}

// SpeedBench is one speed benchmark: the operation measured and the
// baseline it is compared with, both run on the same input in the same
// process.
type SpeedBench struct {
	// Name identifies the benchmark.
	Name string
	// What the benchmark measures, and the baseline it names.
	What, Baseline string
	// Setup prepares both functions; it returns the input size in bytes.
	// An error skips the benchmark with the error as the reason.
	Setup func(ctx context.Context, dir string) (size int, run, base func() error, cleanup func(), err error)
}

// SpeedResult is the outcome of one speed benchmark.
type SpeedResult struct {
	Name     string `json:"name"`
	What     string `json:"what"`
	Baseline string `json:"baseline"`
	// Bytes is the input size of one operation.
	Bytes int `json:"bytes"`
	// NsPerOp and BaseNsPerOp are the times of one operation.
	NsPerOp     int64 `json:"ns_per_op"`
	BaseNsPerOp int64 `json:"baseline_ns_per_op"`
	// MBps and BaseMBps are the throughputs in MB/s of input.
	MBps     float64 `json:"mb_per_s"`
	BaseMBps float64 `json:"baseline_mb_per_s"`
	// Ratio is NsPerOp / BaseNsPerOp: how many times the baseline's time
	// the operation takes.
	Ratio float64 `json:"ratio"`
	// Skipped says why the benchmark did not run.
	Skipped string `json:"skipped,omitempty"`
}

// speedInput is a deterministic JSON array of n log-like records (about
// 330 bytes each), the input of the speed benchmarks.
func speedInput(n int) []byte { return speedInputSalted(n, 0) }

// speedInputSalted is speedInput with salt mixed into every record, so
// inputs with different salts share no line: a benchmark that cycles
// through them measures counting, not the counter's piece cache.
func speedInputSalted(n int, salt uint64) []byte {
	var b bytes.Buffer
	levels := []string{"INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"}
	paths := []string{"/api/v1/orders", "/api/v1/orders/{id}", "/api/v1/carts", "/healthz"}
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"time":"2026-11-20T03:%02d:%02d.%03dZ","level":%q,"service":"orders","version":"4.12.1","host":"orders-7f9c6d5b8-%05d","request_id":"%016x","method":"GET","path":%q,"status":%d,"duration_ms":%d,"bytes":%d,"msg":"request served","tags":["a","b","c"],"node_url":"https://example.com/nodes/%d"}`,
			i/60%60, i%60, i%1000, levels[i%len(levels)], i%7, (uint64(i)+salt<<32)*0x9e3779b97f4a7c15, paths[i%len(paths)], 200+i%5*100, i*37%5000, i*101%20000, i%13)
	}
	b.WriteString("]\n")
	return b.Bytes()
}

// speedLog is a deterministic text log of n lines with repetition.
func speedLog(n int) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		switch {
		case i%50 == 7:
			fmt.Fprintf(&b, "2026-11-20 03:%02d:%02d ERROR worker %d: upstream payments: context deadline exceeded\n", i/60%60, i%60, i%9)
		default:
			fmt.Fprintf(&b, "2026-11-20 03:%02d:%02d status installed libfoo%d:amd64 1.%d.%d\n", i/60%60, i%60, i%40, i%7, i%3)
		}
	}
	return b.Bytes()
}

var speedCounter = sync.OnceValues(func() (budget.Counter, error) { return budget.NewCounter("") })

func speedEngine(ctx context.Context, reg *registry.Registry, st budget.Store) (*host.Engine, error) {
	ctr, err := speedCounter()
	if err != nil {
		return nil, err
	}
	opts := []host.Option{host.WithCounter(ctr), host.WithLazyPlugins(),
		host.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}
	if reg != nil {
		opts = append(opts, host.WithRegistry(reg))
	}
	if st != nil {
		opts = append(opts, host.WithStore(st))
	}
	return host.New(ctx, opts...)
}

// SpeedBenches are the project's speed benchmarks, each with its baseline.
var SpeedBenches = []SpeedBench{
	{
		Name:     "level1-transform",
		What:     "the declarative level-1 transform alone (budget.Declarative) on a 1 MB JSON array of 14-field records, dropping 7 of the fields",
		Baseline: "encoding/json round trip (Unmarshal into any, Marshal)",
		Setup: func(ctx context.Context, dir string) (int, func() error, func() error, func(), error) {
			in := speedInput(3000)
			req := budget.Request{Tool: "speed.transform", Input: in, Rules: budget.Rules{
				Format: "json",
				Drop:   []string{"time", "version", "host", "request_id", "method", "tags", "node_url"},
			}}
			c := budget.Declarative()
			run := func() error {
				out, err := c.Compact(ctx, req)
				if err == nil && len(out.Content) >= len(in) {
					err = fmt.Errorf("level 1 kept %d of %d bytes, want fewer", len(out.Content), len(in))
				}
				return err
			}
			return len(in), run, jsonRoundTrip(in), nil, nil
		},
	},
	{
		Name:     "level1-fields",
		What:     "Engine.Compact, level 1 (declarative field rules: drop *_url, constants, long ids) on a 1 MB JSON array, budget large enough to stay at level 1",
		Baseline: "encoding/json round trip (Unmarshal into any, Marshal)",
		Setup: func(ctx context.Context, dir string) (int, func() error, func() error, func(), error) {
			in := speedInput(3000)
			reg, err := registry.Parse([]byte("version: 1\ntools:\n  - name: speed.logs\n    drop: [\"*_url\"]\n"), "speed.yaml")
			if err != nil {
				return 0, nil, nil, nil, err
			}
			eng, err := speedEngine(ctx, reg, nil)
			if err != nil {
				return 0, nil, nil, nil, err
			}
			run := func() error {
				res, err := eng.Compact(ctx, host.Request{Tool: "speed.logs", Input: in, Budget: 10_000_000})
				if err == nil && res.Level != "fields" && res.Level != "none" {
					err = fmt.Errorf("took level %s, want level 1", res.Level)
				}
				return err
			}
			return len(in), run, jsonRoundTrip(in), func() { eng.Close(ctx) }, nil
		},
	},
	{
		Name:     "plugin-logs",
		What:     "Engine.Compact through the builtin:logs WASM plugin on a 0.5 MB text log",
		Baseline: "the same log through the declarative rules (no plugin)",
		Setup: func(ctx context.Context, dir string) (int, func() error, func() error, func(), error) {
			in := speedLog(8000)
			reg, err := registry.Parse([]byte("version: 1\ntools:\n  - name: speed.plugin\n    plugin:\n      path: builtin:logs\n      timeout: 5s\n  - name: speed.rules\n"), "speed.yaml")
			if err != nil {
				return 0, nil, nil, nil, err
			}
			eng, err := speedEngine(ctx, reg, nil)
			if err != nil {
				return 0, nil, nil, nil, err
			}
			res, err := eng.Compact(ctx, host.Request{Tool: "speed.plugin", Input: in, Budget: 10_000_000})
			if err != nil {
				eng.Close(ctx)
				return 0, nil, nil, nil, err
			}
			for _, a := range res.Actions {
				if strings.HasPrefix(a.Kind, "plugin_") {
					eng.Close(ctx)
					return 0, nil, nil, nil, fmt.Errorf("plugin not usable: %s", a.Detail)
				}
			}
			run := func() error {
				_, err := eng.Compact(ctx, host.Request{Tool: "speed.plugin", Input: in, Budget: 10_000_000})
				return err
			}
			base := func() error {
				_, err := eng.Compact(ctx, host.Request{Tool: "speed.rules", Input: in, Budget: 10_000_000})
				return err
			}
			return len(in), run, base, func() { eng.Close(ctx) }, nil
		},
	},
	{
		Name:     "artifact-store",
		What:     "artifact DirStore Put then Open and read back (hashed, verified) of 1 MB",
		Baseline: "os.WriteFile then os.ReadFile of the same bytes",
		Setup: func(ctx context.Context, dir string) (int, func() error, func() error, func(), error) {
			in := speedInput(3000)
			st, err := artifact.NewDir(dir+"/store", artifact.Options{})
			if err != nil {
				return 0, nil, nil, nil, err
			}
			n := 0
			run := func() error {
				n++
				data := append(in[:len(in):len(in)], fmt.Sprintf(" %d", n)...) // distinct content each time
				h, _, err := st.Put(ctx, bytes.NewReader(data), budget.Meta{Tool: "speed"})
				if err != nil {
					return err
				}
				rc, _, err := st.Open(ctx, h)
				if err != nil {
					return err
				}
				_, err = io.Copy(io.Discard, rc)
				rc.Close()
				return err
			}
			base := func() error {
				n++
				data := append(in[:len(in):len(in)], fmt.Sprintf(" %d", n)...)
				p := fmt.Sprintf("%s/plain-%d", dir, n)
				if err := os.WriteFile(p, data, 0o600); err != nil {
					return err
				}
				_, err := os.ReadFile(p)
				return err
			}
			return len(in), run, base, nil, nil
		},
	},
	{
		Name:     "artifact-jq",
		What:     "artifact query --jq (Querier.JQ, cold cache: load, verify, decode, run) on a stored 1 MB JSON array",
		Baseline: "encoding/json Unmarshal of the same bytes, then the same gojq filter",
		Setup: func(ctx context.Context, dir string) (int, func() error, func() error, func(), error) {
			in := speedInput(3000)
			st, err := artifact.NewDir(dir+"/jq", artifact.Options{})
			if err != nil {
				return 0, nil, nil, nil, err
			}
			h, _, err := st.Put(ctx, bytes.NewReader(in), budget.Meta{Tool: "speed"})
			if err != nil {
				return 0, nil, nil, nil, err
			}
			ctr, err := speedCounter()
			if err != nil {
				return 0, nil, nil, nil, err
			}
			const filter = `[.[] | select(.level == "ERROR")] | length`
			run := func() error {
				q, err := query.New(st, ctr, query.Options{Cache: query.NewCache(0)})
				if err != nil {
					return err
				}
				_, err = q.JQ(ctx, string(h), filter, 0)
				return err
			}
			code, err := gojq.Parse(filter)
			if err != nil {
				return 0, nil, nil, nil, err
			}
			base := func() error {
				dec := json.NewDecoder(bytes.NewReader(in))
				dec.UseNumber()
				var v any
				if err := dec.Decode(&v); err != nil {
					return err
				}
				it := code.RunWithContext(ctx, v)
				for {
					x, ok := it.Next()
					if !ok {
						return nil
					}
					if err, ok := x.(error); ok {
						return err
					}
				}
			}
			return len(in), run, base, nil, nil
		},
	},
	{
		Name:     "tokens-count",
		What:     "exact token count (o200k_base) of 1 MB of JSON, cycling through 4 inputs that share no line (so the counter's piece cache cannot answer)",
		Baseline: "len(strings.Fields(s)), the whitespace word count estimators use",
		Setup: func(ctx context.Context, dir string) (int, func() error, func() error, func(), error) {
			var ins [4]string
			for i := range ins {
				ins[i] = string(speedInputSalted(3000, uint64(i+1)))
			}
			in := ins[0]
			ctr, err := speedCounter()
			if err != nil {
				return 0, nil, nil, nil, err
			}
			next := 0
			run := func() error {
				next = (next + 1) % len(ins)
				if ctr.Count(ins[next]) == 0 {
					return errors.New("zero tokens")
				}
				return nil
			}
			base := func() error {
				if len(strings.Fields(in)) == 0 {
					return errors.New("zero words")
				}
				return nil
			}
			return len(in), run, base, nil, nil
		},
	},
}

func jsonRoundTrip(in []byte) func() error {
	return func() error {
		var v any
		if err := json.Unmarshal(in, &v); err != nil {
			return err
		}
		_, err := json.Marshal(v)
		return err
	}
}

var initTesting sync.Once

// benchmark runs fn with testing.Benchmark and returns ns/op, or fn's
// first error.
func benchmark(fn func() error) (int64, error) {
	var ferr error
	var mu sync.Mutex
	r := testing.Benchmark(func(b *testing.B) {
		for b.Loop() {
			if err := fn(); err != nil {
				mu.Lock()
				ferr = err
				mu.Unlock()
				b.SkipNow()
				return
			}
		}
	})
	if ferr != nil {
		return 0, ferr
	}
	if r.N == 0 {
		return 0, errors.New("did not run")
	}
	return r.NsPerOp(), nil
}

// RunSpeed runs the speed benchmarks (SpeedBenches) in this process with
// testing.Benchmark, so it works wherever the binary runs, without the
// source, and prints each one's throughput with the ratio against its
// baseline measured in the same run.
func RunSpeed(ctx context.Context, w io.Writer, o SpeedOptions) error {
	initTesting.Do(testing.Init)
	bt := o.BenchTime
	if bt <= 0 {
		bt = time.Second
	}
	if err := flag.Set("test.benchtime", bt.String()); err != nil {
		return fmt.Errorf("speed: benchtime: %w", err)
	}
	dir, err := os.MkdirTemp("", "compact-speed-")
	if err != nil {
		return fmt.Errorf("speed: %w", err)
	}
	defer os.RemoveAll(dir)
	var results []SpeedResult
	for _, sb := range SpeedBenches {
		if o.Only != "" && !strings.Contains(sb.Name, o.Only) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		results = append(results, runOne(ctx, sb, dir))
	}
	if o.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(results)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\tinput\tMB/s\tbaseline MB/s\ttime vs baseline\tbaseline\t\n")
	for _, r := range results {
		if r.Skipped != "" {
			fmt.Fprintf(tw, "%s\t\t\t\tskipped: %s\t%s\t\n", r.Name, r.Skipped, r.Baseline)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.2f×\t%s\t\n", r.Name, sizeText(r.Bytes), r.MBps, r.BaseMBps, r.Ratio, r.Baseline)
	}
	return tw.Flush()
}

func runOne(ctx context.Context, sb SpeedBench, dir string) SpeedResult {
	res := SpeedResult{Name: sb.Name, What: sb.What, Baseline: sb.Baseline}
	size, run, base, cleanup, err := sb.Setup(ctx, dir)
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		res.Skipped = firstLineOf(err.Error())
		return res
	}
	res.Bytes = size
	if res.NsPerOp, err = benchmark(run); err != nil {
		res.Skipped = firstLineOf(err.Error())
		return res
	}
	if res.BaseNsPerOp, err = benchmark(base); err != nil {
		res.Skipped = "baseline: " + firstLineOf(err.Error())
		return res
	}
	res.MBps = float64(size) / float64(res.NsPerOp) * 1e3
	res.BaseMBps = float64(size) / float64(res.BaseNsPerOp) * 1e3
	res.Ratio = float64(res.NsPerOp) / float64(res.BaseNsPerOp)
	return res
}

func sizeText(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
