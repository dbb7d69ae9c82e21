package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/toolcompact/compact/host/mcpproxy"
	"github.com/toolcompact/compact/host/server"
	"github.com/toolcompact/compact/schemas"
)

// runMCP is the "compact mcp" subcommand: the MCP proxy.
//
//	compact mcp [flags] -- COMMAND ARGS...     upstream over stdio
//	compact mcp [flags] --upstream-url URL     upstream over streamable HTTP
//
// Downstream is stdio unless --listen gives an HTTP address.
func runMCP(e *env) int {
	c, rest, code := sidecarFlags("mcp", e, true, e.args)
	if code >= 0 {
		return code
	}
	if len(rest) > 0 && rest[0] == "--" {
		rest = rest[1:]
	}
	if len(rest) > 0 {
		c.Command = rest
	}
	switch {
	case len(c.Command) == 0 && c.UpstreamURL == "":
		fmt.Fprintln(e.stderr, "compact mcp: give the upstream server: -- COMMAND ARGS... or --upstream-url URL")
		return ExitUsage
	case len(c.Command) > 0 && c.UpstreamURL != "":
		fmt.Fprintln(e.stderr, "compact mcp: give either a command or --upstream-url, not both")
		return ExitUsage
	}
	log, err := c.logger(e.stderr)
	if err != nil {
		report(e.stderr, "compact mcp", err)
		return ExitUsage
	}
	if c.Listen != "" {
		if err := server.CheckListen(c.Listen, c.Token); err != nil {
			report(e.stderr, "compact mcp", err)
			return ExitUsage
		}
	}
	ctx, stop := sidecarContext(e.ctx)
	defer stop()

	eng, err := c.engine(ctx, log)
	if err != nil {
		report(e.stderr, "compact mcp", err)
		return engineExit(err)
	}
	defer eng.Close(context.Background())

	var up mcpproxy.Upstream
	if c.UpstreamURL != "" {
		up = &mcpproxy.HTTP{URL: c.UpstreamURL, MaxMessage: int(c.MaxMessage)}
	} else {
		up = &mcpproxy.Command{Path: c.Command[0], Args: c.Command[1:], Stderr: e.stderr, MaxMessage: int(c.MaxMessage)}
	}
	reg := prometheus.NewRegistry()
	metrics, err := server.NewMetrics(reg, eng.Store())
	if err != nil {
		report(e.stderr, "compact mcp", err)
		return ExitFailure
	}
	metrics.LabelTools(func(tool string) string { return eng.Registry().Lookup(tool).Name })
	proxy, err := mcpproxy.NewLazy(ctx, up, mcpproxy.Adapt(eng), mcpproxy.Options{
		Budget: c.Budget, CallTimeout: c.CallTimeout, Logger: log, StripOutputSchemas: c.StripOutputSchemas,
		UpstreamProtocol: c.UpstreamProtocol,
		Observe: func(tool string, r schemas.Result, took time.Duration, err error) {
			metrics.Observe("mcp", tool, r, took, err)
		},
	})
	if err != nil {
		report(e.stderr, "compact mcp", err)
		return ExitFailure
	}
	defer proxy.Close()

	if c.Listen == "" {
		t := &mcp.IOTransport{Reader: io.NopCloser(e.stdin), Writer: nopWriteCloser{e.stdout}, MaxLineLength: int(c.MaxBody)}
		if err := proxy.Run(ctx, t); err != nil && ctx.Err() == nil {
			report(e.stderr, "compact mcp", err)
			return ExitFailure
		}
		return ExitOK
	}

	mux := http.NewServeMux()
	mux.Handle("/mcp", proxy.Handler(mcpproxy.HTTPOptions{Logger: log, MaxRequestBodyBytes: int64(c.MaxBody)}))
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintln(w, `{"status":"ok"}`)
	})
	var h http.Handler = mux
	if c.Token != "" {
		h = server.RequireToken(c.Token, h, "/healthz")
	}
	ln, err := net.Listen("tcp", c.Listen)
	if err != nil {
		report(e.stderr, "compact mcp", err)
		return ExitFailure
	}
	if err := server.Serve(ctx, ln, h, c.Grace, log); err != nil {
		report(e.stderr, "compact mcp", err)
		return ExitFailure
	}
	return ExitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
