package mcpproxy

import (
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure the proxy's streamable HTTP door.
type HTTPOptions struct {
	// Logger receives the transport's logs (the proxy's logger when nil).
	Logger *slog.Logger
	// MaxRequestBodyBytes bounds one request body; 0 means the go-sdk's
	// default.
	MaxRequestBodyBytes int64
}

// Handler returns the proxy's MCP endpoint over streamable HTTP: the
// door `compact mcp --listen` serves. Every event of an SSE stream
// carries an id, and a client that lost a stream resumes it with
// Last-Event-ID (events are kept in memory, up to the go-sdk's default
// of 10 MiB per session); requests with a Host or Origin other than
// loopback are refused, as the transport specifies for a local server.
func (p *Proxy) Handler(o HTTPOptions) http.Handler {
	log := o.Logger
	if log == nil {
		log = p.log
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return p.server },
		&mcp.StreamableHTTPOptions{Logger: log, MaxRequestBodyBytes: o.MaxRequestBodyBytes,
			EventStore: mcp.NewMemoryEventStore(nil)})
}
