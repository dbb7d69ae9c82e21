package server

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// jsonMuxErrors answers the requests no route matches with the documented
// JSON error body instead of net/http's plain text: 404 for an unknown
// path, 405 (with its Allow header) for a known path and another method.
func jsonMuxErrors(mux *http.ServeMux) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern != "" {
			mux.ServeHTTP(w, r)
			return
		}
		// Let the mux decide between 404 and 405 (and set Allow), then
		// write our body instead of its text.
		cw := &capture{header: http.Header{}}
		mux.ServeHTTP(cw, r)
		if allow := cw.header.Get("Allow"); allow != "" {
			w.Header().Set("Allow", allow)
		}
		switch cw.status {
		case http.StatusMethodNotAllowed:
			writeError(w, cw.status, "method_not_allowed", fmt.Sprintf("%s is not allowed on %s (allowed: %s)", r.Method, r.URL.Path, cw.header.Get("Allow")))
		case http.StatusNotFound, 0:
			writeError(w, http.StatusNotFound, "not_found", fmt.Sprintf("no route %s %s (see schemas/openapi.yaml)", r.Method, r.URL.Path))
		default:
			writeError(w, cw.status, strings.ReplaceAll(strings.ToLower(http.StatusText(cw.status)), " ", "_"), http.StatusText(cw.status))
		}
	})
}

// capture records the status and headers a handler writes and drops its
// body.
type capture struct {
	header http.Header
	status int
}

func (c *capture) Header() http.Header { return c.header }
func (c *capture) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
}
func (c *capture) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	return len(b), nil
}

// instrumentUnmatched counts and times, under the route "unmatched", the
// requests no route of mux matches (they are answered by h), so that
// compact_http_requests_total counts every request.
func (m *Metrics) instrumentUnmatched(mux *http.ServeMux, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); pattern != "" {
			h.ServeHTTP(w, r)
			return
		}
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		h.ServeHTTP(sw, r)
		code := sw.status
		if code == 0 {
			code = http.StatusOK
		}
		m.httpReqs.WithLabelValues("unmatched", fmt.Sprint(code)).Inc()
		m.httpTime.WithLabelValues("unmatched").Observe(time.Since(start).Seconds())
	})
}
