package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"
)

// EnvToken is the environment variable that holds the bearer token when
// no flag gives one.
const EnvToken = "COMPACT_TOKEN"

// DefaultListen is the address the sidecar listens on unless told
// otherwise: loopback only.
const DefaultListen = "127.0.0.1:8377"

// ErrTokenRequired is returned by CheckListen for a non-loopback address
// without a token.
var ErrTokenRequired = errors.New("a bearer token is required to listen on a non-loopback address")

// IsLoopback reports whether addr (host:port) can only be reached from
// this machine: 127.0.0.0/8, ::1 or "localhost". An empty host ("":8377)
// listens on every interface and is not loopback.
func IsLoopback(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %w", addr, err)
	}
	if host == "localhost" {
		return true, nil
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	if ip == nil {
		// A host name other than localhost may resolve anywhere.
		return false, nil
	}
	return ip.IsLoopback(), nil
}

// CheckListen refuses to listen on a non-loopback address without a
// token; the error names the address and how to give a token.
func CheckListen(addr, token string) error {
	lo, err := IsLoopback(addr)
	if err != nil {
		return err
	}
	if !lo && token == "" {
		return fmt.Errorf("%w: %q is not loopback; give --token or set $%s", ErrTokenRequired, addr, EnvToken)
	}
	return nil
}

// RequireToken wraps h so that every request must carry
// "Authorization: Bearer <token>", except those to the open paths. The
// comparison takes constant time.
func RequireToken(token string, h http.Handler, open ...string) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, p := range open {
			if r.URL.Path == p {
				h.ServeHTTP(w, r)
				return
			}
		}
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="compact"`)
			writeError(w, http.StatusUnauthorized, "unauthorized", "missing or wrong bearer token")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Serve serves h on ln until ctx is done, then shuts down gracefully:
// it stops accepting, lets in-flight requests finish for up to grace, and
// then closes what is left. It returns nil after a clean shutdown.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration, log *slog.Logger) error {
	if log == nil {
		log = slog.Default()
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("listening", "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down; finishing in-flight requests", "grace", grace)
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("shutdown: in-flight requests did not finish within %v: %w", grace, err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
