package server

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// StoreSizer is implemented by an artifact store that can report its
// total size in bytes.
type StoreSizer interface {
	Size(ctx context.Context) (int64, error)
}

// Metrics are the Prometheus metrics of the sidecar. Label values are
// bounded: tool is the name of the registry entry the tool maps to (see
// LabelTools; never the caller's raw tool name), level is one of the five
// levels.
type Metrics struct {
	calls       *prometheus.CounterVec
	levels      *prometheus.CounterVec
	tokBefore   *prometheus.CounterVec
	tokAfter    *prometheus.CounterVec
	records     *prometheus.CounterVec
	shown       *prometheus.CounterVec
	latency     *prometheus.HistogramVec
	pluginFails *prometheus.CounterVec
	stored      prometheus.Counter
	httpReqs    *prometheus.CounterVec
	httpTime    *prometheus.HistogramVec
	ctxCalls    *prometheus.CounterVec
	ctxLatency  prometheus.Histogram
	storeBytes  atomic.Int64
	entry       func(tool string) string
}

// NewMetrics registers the sidecar's metrics in reg. When st can report
// its size (StoreSizer), compact_artifact_store_bytes is read from it at
// each scrape.
func NewMetrics(reg prometheus.Registerer, st budget.Store) (*Metrics, error) {
	m := &Metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_calls_total", Help: "Compactions, by door (http, mcp), tool and outcome (ok, cannot_fit, error).",
		}, []string{"door", "tool", "outcome"}),
		levels: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_levels_total", Help: "Compacted results by the level that made them fit.",
		}, []string{"level"}),
		tokBefore: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_tokens_before_total", Help: "Tokens of the original outputs.",
		}, []string{"tool"}),
		tokAfter: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_tokens_after_total", Help: "Tokens of the compacted outputs the model saw.",
		}, []string{"tool"}),
		records: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_records_total", Help: "Records found in the original outputs; every one is preserved (shown or stored with its count).",
		}, []string{"tool"}),
		shown: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_records_shown_total", Help: "Records visible in the compacted outputs.",
		}, []string{"tool"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "compact_compaction_seconds", Help: "Time the engine took per compaction, plugin included.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"tool"}),
		pluginFails: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_plugin_failures_total", Help: "Plugin faults (the declarative rules ran instead), by plugin and action kind (plugin_failed, plugin_skipped).",
		}, []string{"plugin", "kind"}),
		stored: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "compact_artifact_stored_bytes_total", Help: "Bytes of originals referenced by artifact-level results.",
		}),
		httpReqs: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "compact_http_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		httpTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "compact_http_request_seconds", Help: "HTTP request latency by route.",
			Buckets: prometheus.DefBuckets,
		}, []string{"route"}),
	}
	m.ctxCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "compact_context_calls_total", Help: "Whole prompts fitted through POST /v1/context, by outcome (ok, cannot_fit, error).",
	}, []string{"outcome"})
	m.ctxLatency = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "compact_context_seconds", Help: "Time the engine took per prompt fitted through POST /v1/context.",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
	})
	cs := []prometheus.Collector{m.calls, m.levels, m.tokBefore, m.tokAfter, m.records, m.shown, m.latency, m.pluginFails, m.stored, m.httpReqs, m.httpTime, m.ctxCalls, m.ctxLatency}
	sz, ok := st.(StoreSizer)
	if d, isDir := st.(interface{ Dir() string }); !ok && isDir {
		sz, ok = &dirSizer{dir: d.Dir()}, true
	}
	if ok {
		cs = append(cs, prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "compact_artifact_store_bytes", Help: "Total size of the artifact store (for a directory store: the bytes of its files, re-measured at most every 15 s).",
		}, func() float64 {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			n, err := sz.Size(ctx)
			if err != nil {
				return float64(m.storeBytes.Load())
			}
			m.storeBytes.Store(n)
			return float64(n)
		}))
	}
	for _, c := range cs {
		if err := reg.Register(c); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// LabelTools makes the tool label of every metric the name of the
// registry entry a tool maps to (entry(tool)), which keeps its values
// bounded; without it the label is "unknown".
func (m *Metrics) LabelTools(entry func(tool string) string) {
	if m != nil {
		m.entry = entry
	}
}

// Observe records one compaction made through door ("http", "mcp").
func (m *Metrics) Observe(door, tool string, res schemas.Result, took time.Duration, err error) {
	if m == nil {
		return
	}
	// The caller's tool name is unbounded: the label is the registry
	// entry it maps to ("default" for any unknown tool).
	name := "unknown"
	if m.entry != nil {
		name = m.entry(tool)
	}
	outcome := "ok"
	switch {
	case err == nil:
	case errors.Is(err, budget.ErrCannotFit):
		outcome = "cannot_fit"
	default:
		outcome = "error"
	}
	m.calls.WithLabelValues(door, name, outcome).Inc()
	m.latency.WithLabelValues(name).Observe(took.Seconds())
	if err != nil {
		return
	}
	m.levels.WithLabelValues(string(res.Level)).Inc()
	m.tokBefore.WithLabelValues(name).Add(float64(res.Tokens.Before))
	m.tokAfter.WithLabelValues(name).Add(float64(res.Tokens.After))
	var count, shown int
	for _, c := range res.Collections {
		count += c.Count
		shown += c.Shown
	}
	m.records.WithLabelValues(name).Add(float64(count))
	m.shown.WithLabelValues(name).Add(float64(shown))
	for _, a := range res.Actions {
		if a.Kind == "plugin_failed" || a.Kind == "plugin_skipped" {
			m.pluginFails.WithLabelValues(a.Target, a.Kind).Inc()
		}
	}
	if res.Artifact != nil {
		m.stored.Add(float64(res.Artifact.Bytes))
	}
}

// ObserveContext records one prompt fitted through /v1/context.
func (m *Metrics) ObserveContext(took time.Duration, err error) {
	if m == nil {
		return
	}
	outcome := "ok"
	switch {
	case err == nil:
	case errors.Is(err, budget.ErrCannotFit):
		outcome = "cannot_fit"
	default:
		outcome = "error"
	}
	m.ctxCalls.WithLabelValues(outcome).Inc()
	m.ctxLatency.Observe(took.Seconds())
}

// instrument counts and times the requests of one route.
func (m *Metrics) instrument(route string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		code := sw.status
		if code == 0 {
			code = http.StatusOK
		}
		m.httpReqs.WithLabelValues(route, strconv.Itoa(code)).Inc()
		m.httpTime.WithLabelValues(route).Observe(time.Since(start).Seconds())
	})
}

// dirSizer measures a directory store: the bytes of every file under it,
// re-measured at most every 15 seconds.
type dirSizer struct {
	dir  string
	mu   sync.Mutex
	at   time.Time
	size int64
}

func (d *dirSizer) Size(ctx context.Context) (int64, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.at.IsZero() && time.Since(d.at) < 15*time.Second {
		return d.size, nil
	}
	var n int64
	err := filepath.WalkDir(d.dir, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // a file removed while walking
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if e.Type().IsRegular() {
			if info, err := e.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	if err != nil {
		return d.size, err
	}
	d.size, d.at = n, time.Now()
	return n, nil
}
