package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Defaults of the hostile-client limits of Config.
const (
	// DefaultMinBodyRate is the slowest a request body may arrive, in
	// bytes per second, after DefaultBodyGrace.
	DefaultMinBodyRate = 32 << 10
	// DefaultBodyGrace is how long a body may take before the minimum
	// rate applies (so that small bodies on a slow link are not refused).
	DefaultBodyGrace = 2 * time.Second
	// DefaultMaxPerClient bounds the requests one client address has in
	// progress at once (reading, waiting or compacting). Every local client
	// of a loopback sidecar has the same address, so the default is high:
	// it stops one address from holding thousands of connections.
	DefaultMaxPerClient = 512
)

// guard applies the rules every route shares, before anything else
// runs: the Host (and Origin) must name this server (loopback, the
// address the request arrived on, or one of Config.AllowedHosts), so a
// DNS-rebinding page cannot reach it; a request with a body must say
// Content-Type: application/json, so a cross-site form or text/plain POST
// (which a browser sends without asking) is refused; cross-origin
// browser requests are refused (http.CrossOriginProtection); and one
// client address may have at most MaxPerClient requests in progress.
func (s *Server) guard(next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r, r.Host) {
			writeError(w, http.StatusForbidden, "forbidden_host",
				fmt.Sprintf("Host %q is not this server (loopback, the address the request arrived on, or an allowed host: --allowed-host)", r.Host))
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			host := strings.TrimPrefix(strings.TrimPrefix(o, "https://"), "http://")
			if o == "null" || !s.hostAllowed(r, host) {
				writeError(w, http.StatusForbidden, "forbidden_origin", fmt.Sprintf("Origin %q is not allowed", o))
				return
			}
		}
		if err := cop.Check(r); err != nil {
			writeError(w, http.StatusForbidden, "forbidden_origin", err.Error())
			return
		}
		if r.Method == http.MethodPost || r.Method == http.MethodPut || r.Method == http.MethodPatch {
			mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if mt != "application/json" {
				writeError(w, http.StatusUnsupportedMediaType, "unsupported_media_type",
					fmt.Sprintf("Content-Type %q: want application/json", r.Header.Get("Content-Type")))
				return
			}
		}
		client := clientOf(r)
		if !s.clients.enter(client, s.cfg.MaxPerClient) {
			w.Header().Set("Retry-After", "1")
			writeError(w, http.StatusTooManyRequests, "too_many_requests",
				fmt.Sprintf("client %s has %d requests in progress, the most one client may have", client, s.cfg.MaxPerClient))
			return
		}
		defer s.clients.leave(client)
		next.ServeHTTP(w, r)
	})
}

// clientOf is the client address of r (without its port).
func clientOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// hostAllowed reports whether hostport (a Host header or an Origin's
// host) names this server.
func (s *Server) hostAllowed(r *http.Request, hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "" {
		return false
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return true
	}
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && la != nil {
		if h, _, err := net.SplitHostPort(la.String()); err == nil && strings.EqualFold(strings.Trim(h, "[]"), host) {
			return true
		}
	}
	for _, a := range s.cfg.AllowedHosts {
		if strings.EqualFold(strings.TrimSpace(a), host) {
			return true
		}
	}
	return false
}

// clientCounts counts the requests in progress per client address.
type clientCounts struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *clientCounts) enter(client string, limit int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	if c.n[client] >= limit {
		return false
	}
	c.n[client]++
	return true
}

func (c *clientCounts) leave(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client]--; c.n[client] <= 0 {
		delete(c.n, client)
	}
}

// bodyPrealloc is the most readBody reserves for a body before its bytes
// arrive.
const bodyPrealloc = 1 << 20

// errSlowBody is the error of a body that arrived slower than the
// minimum rate.
var errSlowBody = errors.New("request body too slow")

// readBody reads the whole request body before a compaction slot is
// taken, with a deadline that grows with what has arrived: BodyGrace
// plus one second per MinBodyRate bytes, never past the request's own
// deadline. A client that sends one byte and then nothing is cut after
// the grace period and holds no slot meanwhile.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) error {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	rc := http.NewResponseController(w)
	start := time.Now()
	end, hasEnd := r.Context().Deadline()
	limit := func(n int) time.Time {
		d := start.Add(s.cfg.BodyGrace + time.Duration(float64(n)/float64(s.cfg.MinBodyRate)*float64(time.Second)))
		if hasEnd && end.Before(d) {
			return end
		}
		return d
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		// The declared length is the client's word: reserve at most
		// bodyPrealloc for it, the rest grows as bytes arrive (a client
		// that declares 64 MiB and sends one byte must not cost 64 MiB).
		buf.Grow(int(min(r.ContentLength, s.cfg.MaxBody, bodyPrealloc)))
	}
	chunk := make([]byte, 32<<10)
	canDeadline := rc.SetReadDeadline(limit(0)) == nil
	defer rc.SetReadDeadline(time.Time{})
	for {
		d := limit(buf.Len())
		if canDeadline {
			_ = rc.SetReadDeadline(d)
		}
		n, err := r.Body.Read(chunk)
		buf.Write(chunk[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			var ne net.Error
			timeout := errors.As(err, &ne) && ne.Timeout() || time.Now().After(d)
			if timeout && hasEnd && !d.Before(end) {
				// The request's own deadline, not the body's rate.
				return fmt.Errorf("reading the body: %w", context.DeadlineExceeded)
			}
			if timeout {
				return fmt.Errorf("%w: %d bytes in %v, under the minimum of %d bytes/s after %v",
					errSlowBody, buf.Len(), time.Since(start).Round(time.Millisecond), s.cfg.MinBodyRate, s.cfg.BodyGrace)
			}
			return err
		}
		if !canDeadline && time.Now().After(d) {
			if hasEnd && !d.Before(end) {
				return fmt.Errorf("reading the body: %w", context.DeadlineExceeded)
			}
			return fmt.Errorf("%w: %d bytes in %v", errSlowBody, buf.Len(), time.Since(start).Round(time.Millisecond))
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(buf.Bytes()))
	return nil
}

// bufferedWriter holds a handler's response so that the compaction slot
// is released before the response is written to a client that may read
// it slowly.
type bufferedWriter struct {
	h      http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.h }

func (b *bufferedWriter) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// flush writes the held response to w.
func (b *bufferedWriter) flush(w http.ResponseWriter) {
	for k, v := range b.h {
		w.Header()[k] = v
	}
	if b.status == 0 {
		b.status = http.StatusOK
	}
	if w.Header().Get("Content-Length") == "" {
		w.Header().Set("Content-Length", strconv.Itoa(b.body.Len()))
	}
	w.WriteHeader(b.status)
	_, _ = w.Write(b.body.Bytes())
}

// scrub keeps the artifact store's directory out of error responses: a
// remote client has no use for the server's file layout (an error about
// a damaged object names its path). The text "<store>" stands for it.
func (s *Server) scrub(next http.Handler) http.Handler {
	d, ok := s.cfg.Engine.Store().(interface{ Dir() string })
	if !ok || d.Dir() == "" {
		return next
	}
	dir := d.Dir()
	quoted, _ := jsonText(dir)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&scrubWriter{ResponseWriter: w, dir: dir, quoted: quoted}, r)
	})
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) (string, error) {
	b, err := json.Marshal(s)
	if err != nil {
		return s, err
	}
	return string(b[1 : len(b)-1]), nil
}

// scrubWriter rewrites the body of an error response (status ≥ 400).
type scrubWriter struct {
	http.ResponseWriter
	dir, quoted string
	status      int
}

func (w *scrubWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	if code >= 400 {
		w.Header().Del("Content-Length")
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *scrubWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.status < 400 {
		return w.ResponseWriter.Write(p)
	}
	q := bytes.ReplaceAll(p, []byte(w.quoted), []byte("<store>"))
	q = bytes.ReplaceAll(q, []byte(w.dir), []byte("<store>"))
	if _, err := w.ResponseWriter.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush lets streaming handlers flush through the wrapper.
func (w *scrubWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *scrubWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
