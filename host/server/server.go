// Package server is compact's HTTP sidecar: a JSON API for agent
// frameworks that do not speak MCP. It compacts one tool result
// (POST /v1/compact), fits a whole prompt of blocks (POST /v1/context),
// answers queries over stored artifacts (GET /v1/artifacts/{handle}), and
// reports health and Prometheus metrics. The API is described by
// schemas/openapi.yaml.
//
// The package also holds the operational rules shared by both sidecar
// doors (this API and the MCP proxy's HTTP transport): loopback by
// default, a bearer token required on any other address, request size
// limits, per-request deadlines and graceful shutdown.
package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/prompt"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// Engine is what the API needs from host.Engine.
type Engine interface {
	Compact(ctx context.Context, req host.Request) (schemas.Result, error)
	Store() budget.Store
}

// ContextFitter is implemented by an engine that fits whole prompts; the
// /v1/context route answers 501 without it.
type ContextFitter interface {
	Context(ctx context.Context, blocks []schemas.Block, budget int) (schemas.ContextResult, error)
}

// EntryNamer is implemented by an engine that can say which registry
// entry a tool maps to; metrics then label tools by entry.
type EntryNamer interface {
	EntryName(tool string) string
}

// ArtifactQuerier is implemented by an engine that answers jq, slice and
// search queries over artifacts; without it only a plain get works.
type ArtifactQuerier interface {
	QueryArtifact(ctx context.Context, q ArtifactQuery) (query.Answer, error)
}

// ArtifactQuery is one query of GET /v1/artifacts/{handle}: the
// engine's request type (see host.ArtifactQuery), filled from the URL's
// query parameters.
type ArtifactQuery = host.ArtifactQuery

// Defaults of Config.
const (
	DefaultMaxBody = 64 << 20 // bytes of one request body
	DefaultTimeout = 30 * time.Second
)

// Config configures a Server.
type Config struct {
	// Engine compacts; it is required.
	Engine Engine
	// Budget is the default token budget when a request names none
	// (0: the registry entry's, then the engine's).
	Budget int
	// MaxBody bounds one request body in bytes (DefaultMaxBody when 0).
	MaxBody int64
	// Timeout is the deadline of one request (DefaultTimeout when 0).
	Timeout time.Duration
	// Token, when set, is the bearer token every route but /healthz
	// requires.
	Token string
	// Logger receives one structured line per request (slog.Default when
	// nil).
	Logger *slog.Logger
	// MaxInFlight bounds the compactions (and context fits and queries)
	// running at once; more requests wait for a slot within their
	// deadline. 0 means 2 × GOMAXPROCS. Compaction is CPU-bound and
	// tokenizing allocates many times the input, so running more at once
	// adds memory, not throughput.
	MaxInFlight int
	// Registerer receives the metrics (a new registry when nil; /metrics
	// serves that registry).
	Registry *prometheus.Registry
	// AllowedHosts are host names (or addresses) besides loopback and the
	// address a request arrived on that the Host and Origin headers may
	// name; anything else is refused with 403 (DNS rebinding).
	AllowedHosts []string
	// MinBodyRate is the slowest, in bytes per second, a request body may
	// arrive once BodyGrace has passed (DefaultMinBodyRate when 0). The
	// body is read whole before a compaction slot is taken.
	MinBodyRate int64
	// BodyGrace is how long a body may take before MinBodyRate applies
	// (DefaultBodyGrace when 0).
	BodyGrace time.Duration
	// MaxPerClient bounds the requests one client address has in progress
	// at once; more get 429 (DefaultMaxPerClient when 0).
	MaxPerClient int
}

// Server is the HTTP API. It is an http.Handler.
type Server struct {
	cfg     Config
	log     *slog.Logger
	mux     *http.ServeMux
	metrics *Metrics
	handler http.Handler
	slots   chan struct{}
	clients clientCounts
}

// Route is one method and path pattern the server answers.
type Route struct {
	Method, Path string
}

// Routes lists every route the server answers, in the syntax of
// schemas/openapi.yaml (path parameters in braces).
func Routes() []Route {
	return []Route{
		{"POST", "/v1/compact"},
		{"POST", "/v1/context"},
		{"GET", "/v1/artifacts/{handle}"},
		{"GET", "/healthz"},
		{"GET", "/metrics"},
	}
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Engine == nil {
		return nil, errors.New("server: Config.Engine is required")
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Registry == nil {
		// The sidecar's own registry also carries the Go runtime's and
		// the process's metrics (go_*, process_*); a caller's registry
		// gets only compact's.
		cfg.Registry = prometheus.NewRegistry()
		cfg.Registry.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.MinBodyRate <= 0 {
		cfg.MinBodyRate = DefaultMinBodyRate
	}
	if cfg.BodyGrace <= 0 {
		cfg.BodyGrace = DefaultBodyGrace
	}
	if cfg.MaxPerClient <= 0 {
		cfg.MaxPerClient = DefaultMaxPerClient
	}
	s := &Server{cfg: cfg, log: cfg.Logger, mux: http.NewServeMux(), slots: make(chan struct{}, cfg.MaxInFlight)}
	if s.log == nil {
		s.log = slog.Default()
	}
	m, err := NewMetrics(cfg.Registry, cfg.Engine.Store())
	if err != nil {
		return nil, err
	}
	s.metrics = m
	if en, ok := cfg.Engine.(EntryNamer); ok {
		m.LabelTools(en.EntryName)
	}
	handlers := map[Route]http.Handler{
		{"POST", "/v1/compact"}:           s.bounded(s.compact),
		{"POST", "/v1/context"}:           s.bounded(s.context),
		{"GET", "/v1/artifacts/{handle}"}: s.boundedQuery(s.artifact),
		{"GET", "/healthz"}:               http.HandlerFunc(s.healthz),
		{"GET", "/metrics"}:               promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{}),
	}
	for _, r := range Routes() {
		var h http.Handler = handlers[r]
		if h == nil {
			return nil, fmt.Errorf("server: route %s %s has no handler", r.Method, r.Path)
		}
		if cfg.Token != "" && r.Path != "/healthz" {
			h = RequireToken(cfg.Token, h)
		}
		s.mux.Handle(r.Method+" "+r.Path, m.instrument(r.Path, h))
	}
	s.handler = s.logRequests(s.scrub(s.limits(s.guard(m.instrumentUnmatched(s.mux, jsonMuxErrors(s.mux))))))
	return s, nil
}

// Metrics returns the server's metrics, so that another door (the MCP
// proxy) can record into the same registry.
func (s *Server) Metrics() *Metrics { return s.metrics }

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// bounded reads the request body whole (readBody: with a deadline that
// grows with a minimum rate), then runs h when one of the MaxInFlight
// slots is free, waiting for one within the request's deadline. h
// writes into a buffer, and the slot is released before the response
// goes to the client: a slot is held only while compacting, never while
// a slow client sends or reads.
func (s *Server) bounded(h http.HandlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := s.readBody(w, r); err != nil {
			var mbe *http.MaxBytesError
			switch {
			case errors.Is(err, errSlowBody):
				w.Header().Set("Connection", "close")
				writeError(w, http.StatusRequestTimeout, "slow_body", err.Error())
			case errors.As(err, &mbe), errors.Is(err, context.DeadlineExceeded):
				engineError(w, err)
			default:
				writeError(w, http.StatusBadRequest, "bad_request", "reading the body: "+err.Error())
			}
			return
		}
		select {
		case s.slots <- struct{}{}:
		case <-r.Context().Done():
			writeError(w, http.StatusServiceUnavailable, "busy",
				fmt.Sprintf("no free slot among %d within the request's deadline: %v", cap(s.slots), r.Context().Err()))
			return
		}
		bw := &bufferedWriter{h: http.Header{}}
		func() {
			defer func() { <-s.slots }()
			h(bw, r)
		}()
		bw.flush(w)
	})
}

// boundedQuery is bounded for artifact queries; a plain download of a
// whole artifact (no query parameters) streams the stored bytes without
// a slot: it compacts nothing.
func (s *Server) boundedQuery(h http.HandlerFunc) http.Handler {
	b := s.bounded(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.RawQuery == "" {
			h(w, r)
			return
		}
		b.ServeHTTP(w, r)
	})
}

// limits puts the size limit and the deadline on every request.
func (s *Server) limits(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > s.cfg.MaxBody {
			writeError(w, http.StatusRequestEntityTooLarge, "too_large",
				fmt.Sprintf("request body is %d bytes; the limit is %d", r.ContentLength, s.cfg.MaxBody))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.Timeout)
		defer cancel()
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

// Flush lets streaming handlers flush through the wrapper.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		s.log.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path),
			slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes),
			slog.Duration("took", time.Since(start)))
	})
}

// apiError is the body of every error response.
type apiError struct {
	Error errorBody `json:"error"`
}

type errorBody struct {
	// Code is a stable machine-readable name.
	Code string `json:"code"`
	// Message says what is wrong and where.
	Message string `json:"message"`
	// Fit carries the numbers when no level could fit the budget (a
	// budget.FitError for one result, a prompt.FitError for a prompt).
	Fit any `json:"fit,omitempty"`
}

func writeError(w http.ResponseWriter, status int, code, msg string) {
	writeJSON(w, status, apiError{Error: errorBody{Code: code, Message: msg}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// engineError maps an engine error to a response.
func engineError(w http.ResponseWriter, err error) {
	var fe *budget.FitError
	var pfe *prompt.FitError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &fe):
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: errorBody{Code: "cannot_fit", Message: err.Error(), Fit: fe}})
	case errors.As(err, &pfe):
		writeJSON(w, http.StatusUnprocessableEntity, apiError{Error: errorBody{Code: "cannot_fit", Message: err.Error(), Fit: pfe}})
	case errors.Is(err, prompt.ErrInvalid):
		writeError(w, http.StatusBadRequest, "bad_request", err.Error())
	case errors.Is(err, artifact.ErrBadRef):
		writeError(w, http.StatusBadRequest, "bad_handle", err.Error())
	case errors.Is(err, query.ErrBadQuery), errors.Is(err, query.ErrNotJSON), errors.Is(err, query.ErrNoValue):
		writeError(w, http.StatusBadRequest, "bad_query", err.Error())
	case errors.Is(err, query.ErrLimit):
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", err.Error())
	case errors.Is(err, budget.ErrCannotFit):
		writeError(w, http.StatusUnprocessableEntity, "cannot_fit", err.Error())
	case errors.Is(err, budget.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", err.Error())
	case errors.Is(err, budget.ErrExpired):
		writeError(w, http.StatusGone, "expired", err.Error())
	case errors.As(err, &mbe):
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("request body is larger than %d bytes", mbe.Limit))
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "deadline", "the request did not finish within its deadline: "+err.Error())
	case errors.Is(err, context.Canceled):
		writeError(w, 499, "cancelled", err.Error())
	default:
		writeError(w, http.StatusInternalServerError, "internal", err.Error())
	}
}

// CompactRequest is the body of POST /v1/compact.
type CompactRequest struct {
	// Tool is the tool name the registry entry is looked up by.
	Tool string `json:"tool"`
	// Content is the tool output: a JSON string holds the output text
	// exactly; any other JSON value is taken as the output itself (its
	// bytes as sent).
	Content json.RawMessage `json:"content"`
	// ContentType is the declared media type ("" sniffs it).
	ContentType string `json:"content_type,omitempty"`
	// Budget is the token budget (0: the default).
	Budget int `json:"budget,omitempty"`
	// Args are the tool's call arguments.
	Args json.RawMessage `json:"args,omitempty"`
}

// ContextRequest is the body of POST /v1/context.
type ContextRequest struct {
	// Budget is the token budget of the whole prompt; it is required.
	Budget int `json:"budget"`
	// Blocks are the prompt's blocks (context.schema.json).
	Blocks json.RawMessage `json:"blocks"`
}

// decodeStrict decodes one JSON value from r into v, refusing unknown
// members and trailing data.
func decodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// unquote decodes a JSON string (a tool's output text) as
// encoding/json.Unmarshal into a string would. jsontext unquotes valid
// strings in one pass, about 4x faster than Unmarshal's validate-then-
// decode on a 100 KB output; anything it refuses (invalid UTF-8, a lone
// surrogate escape, a malformed string) goes to Unmarshal, which decides
// and words the error as before.
func unquote(raw json.RawMessage) ([]byte, error) {
	if b, err := jsontext.AppendUnquote(nil, raw); err == nil {
		return b, nil
	}
	var str string
	if err := json.Unmarshal(raw, &str); err != nil {
		return nil, err
	}
	return []byte(str), nil
}

func (s *Server) compact(w http.ResponseWriter, r *http.Request) {
	var req CompactRequest
	if err := decodeStrict(r.Body, &req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			engineError(w, err)
			return
		}
		writeError(w, http.StatusBadRequest, "bad_request", "body: "+err.Error())
		return
	}
	if req.Tool == "" {
		writeError(w, http.StatusBadRequest, "bad_request", `body: "tool" is required`)
		return
	}
	if len(req.Content) == 0 {
		writeError(w, http.StatusBadRequest, "bad_request", `body: "content" is required`)
		return
	}
	if req.Budget < 0 {
		writeError(w, http.StatusBadRequest, "bad_request", `body: "budget" must not be negative`)
		return
	}
	input := []byte(req.Content)
	if input[0] == '"' {
		var err error
		if input, err = unquote(req.Content); err != nil {
			writeError(w, http.StatusBadRequest, "bad_request", "body: content: "+err.Error())
			return
		}
	}
	budgetTokens := req.Budget
	if budgetTokens == 0 {
		budgetTokens = s.cfg.Budget
	}
	start := time.Now()
	res, err := s.cfg.Engine.Compact(r.Context(), host.Request{
		Tool: req.Tool, Input: input, ContentType: req.ContentType, Budget: budgetTokens, Args: req.Args,
	})
	s.metrics.Observe("http", req.Tool, res, time.Since(start), err)
	if err != nil {
		engineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) context(w http.ResponseWriter, r *http.Request) {
	fitter, ok := s.cfg.Engine.(ContextFitter)
	if !ok {
		writeError(w, http.StatusNotImplemented, "not_implemented", "this engine cannot fit whole prompts")
		return
	}
	var req ContextRequest
	if err := decodeStrict(r.Body, &req); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			engineError(w, err)
			return
		}
		writeError(w, http.StatusBadRequest, "bad_request", "body: "+err.Error())
		return
	}
	if req.Budget <= 0 {
		writeError(w, http.StatusBadRequest, "bad_request", `body: "budget" is required and must be positive`)
		return
	}
	if len(req.Blocks) == 0 {
		writeError(w, http.StatusBadRequest, "bad_request", `body: "blocks" is required`)
		return
	}
	blocks, err := prompt.DecodeBytes(req.Blocks)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad_request", "body: blocks: "+err.Error())
		return
	}
	start := time.Now()
	res, err := fitter.Context(r.Context(), blocks, req.Budget)
	s.metrics.ObserveContext(time.Since(start), err)
	if err != nil {
		engineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) artifact(w http.ResponseWriter, r *http.Request) {
	ref := r.PathValue("handle")
	qv := r.URL.Query()
	for k := range qv {
		switch k {
		case "jq", "offset", "limit", "q", "budget":
		default:
			writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("unknown query parameter %q (want jq, offset, limit, q, budget)", k))
			return
		}
	}
	q := ArtifactQuery{Ref: ref, Op: "get", Filter: qv.Get("jq"), Text: qv.Get("q")}
	for _, p := range []struct {
		name string
		dst  *int
	}{{"offset", &q.Offset}, {"limit", &q.Limit}, {"budget", &q.Budget}} {
		if v := qv.Get(p.name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				writeError(w, http.StatusBadRequest, "bad_request", fmt.Sprintf("query parameter %s=%q: want a non-negative integer", p.name, v))
				return
			}
			*p.dst = n
		}
	}
	ops := 0
	if qv.Has("jq") {
		q.Op, ops = "jq", ops+1
	}
	if qv.Has("q") {
		q.Op, ops = "search", ops+1
	}
	if (qv.Has("offset") || qv.Has("limit")) && q.Op == "get" {
		q.Op, ops = "slice", ops+1
	}
	if ops > 1 {
		writeError(w, http.StatusBadRequest, "bad_request", "give one of jq, q (search) or offset/limit (slice), not several")
		return
	}
	if q.Op == "jq" && strings.TrimSpace(q.Filter) == "" {
		writeError(w, http.StatusBadRequest, "bad_request", "jq: empty filter")
		return
	}
	if q.Op == "search" && strings.TrimSpace(q.Text) == "" {
		writeError(w, http.StatusBadRequest, "bad_request", "q: empty search text")
		return
	}
	if q.Budget == 0 {
		q.Budget = s.cfg.Budget
	}
	if len(qv) == 0 {
		if parsed, err := artifact.ParseRef(ref); err == nil && parsed.Path == "" {
			s.rawArtifact(w, r, parsed.Handle)
			return
		} else if err != nil {
			writeError(w, http.StatusBadRequest, "bad_handle", err.Error())
			return
		}
	}
	qr, ok := s.cfg.Engine.(ArtifactQuerier)
	if !ok {
		writeError(w, http.StatusNotImplemented, "not_implemented", "this engine cannot query artifacts")
		return
	}
	res, err := qr.QueryArtifact(r.Context(), q)
	if err != nil {
		engineError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// rawArtifact writes the exact stored bytes of a whole artifact.
func (s *Server) rawArtifact(w http.ResponseWriter, r *http.Request, h budget.Handle) {
	st := s.cfg.Engine.Store()
	if st == nil {
		writeError(w, http.StatusNotFound, "not_found", "the artifact store is off")
		return
	}
	rc, meta, err := st.Open(r.Context(), h)
	if err != nil {
		engineError(w, err)
		return
	}
	defer rc.Close()
	ct := meta.ContentType
	if ct == "" {
		ct = "application/octet-stream"
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Content-Length", strconv.FormatInt(meta.Bytes, 10))
	w.Header().Set("X-Compact-SHA256", meta.SHA256)
	if meta.Tool != "" {
		w.Header().Set("X-Compact-Tool", meta.Tool)
	}
	if _, err := io.Copy(w, rc); err != nil {
		s.log.Warn("writing artifact", "handle", string(h), "err", err)
	}
}

// Health is the body of GET /healthz.
type Health struct {
	// Status is "ok".
	Status string `json:"status"`
	// Store says whether the artifact store is on.
	Store bool `json:"store"`
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, Health{Status: "ok", Store: s.cfg.Engine.Store() != nil})
}
