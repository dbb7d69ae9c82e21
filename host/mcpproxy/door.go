package mcpproxy

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPOptions configure the proxy's streamable HTTP door.
type HTTPOptions struct {
	// Logger receives the transport's logs (the proxy's logger when nil).
	Logger *slog.Logger
	// MaxRequestBodyBytes bounds one request body; 0 means the go-sdk's
	// default.
	MaxRequestBodyBytes int64
	// SessionTimeout ends a session no request has used for that long
	// (and its upstream session with it); 0 means DefaultSessionTimeout.
	SessionTimeout time.Duration
}

// DefaultSessionTimeout is how long an HTTP session may stay unused
// before it is ended, unless HTTPOptions.SessionTimeout says otherwise.
const DefaultSessionTimeout = 30 * time.Minute

// Handler returns the proxy's MCP endpoint over streamable HTTP: the
// door `compact mcp --listen` serves.
//
// Each HTTP session has an upstream session of its own (for a command
// upstream, a process of its own), connected when the client's
// initialize starts the session, announcing exactly that client's
// capabilities (see sessionFor), and ended when the session ends: deleted by the client, or unused for
// SessionTimeout. So clients never see each other's resources,
// subscriptions, log level or questions. Every event of an SSE stream
// carries an id, and a client that lost a stream resumes it with
// Last-Event-ID (events are kept in memory, up to the go-sdk's default
// of 10 MiB per session); requests with a Host or Origin other than
// loopback are refused, as the transport specifies for a local server.
// Handles handed out in any session resolve in every session.
func (p *Proxy) Handler(o HTTPOptions) http.Handler {
	log := o.Logger
	if log == nil {
		log = p.log
	}
	timeout := o.SessionTimeout
	if timeout <= 0 {
		timeout = DefaultSessionTimeout
	}
	h := mcp.NewStreamableHTTPHandler(p.sessionServer,
		&mcp.StreamableHTTPOptions{Logger: log, MaxRequestBodyBytes: o.MaxRequestBodyBytes,
			EventStore: mcp.NewMemoryEventStore(nil), SessionTimeout: timeout})
	// The pass-through reads each body first: under the go-sdk's limit.
	limit := o.MaxRequestBodyBytes
	if limit == 0 {
		limit = mcp.DefaultMaxRequestBodyBytes
	}
	return &wireHandler{next: h, w: p.wire, max: limit}
}

// newSession is what the go-sdk's handler asks sessionServer for a
// POST that starts a session (it asks twice for one request): the
// client's initialize, and the server made for it.
type newSession struct {
	init   *clientInit
	once   sync.Once
	server *mcp.Server
}

type newSessionKey struct{}

// sessionServer is the server of a new HTTP session: that of a proxy of
// its own, connected to the upstream with the client's capabilities
// (see sessionFor), closed when the session ends. Other requests (the
// go-sdk asks for the server of every request, to check its protocol
// version header) get p's own server.
func (p *Proxy) sessionServer(r *http.Request) *mcp.Server {
	ns, ok := r.Context().Value(newSessionKey{}).(*newSession)
	if !ok || p.closed.Load() {
		return p.server
	}
	ns.once.Do(func() {
		child := p.sessionFor(ns.init)
		child.wired.Store(true)
		ns.server = child.server
		go func() {
			child.closeWithSession()
			p.mu.Lock()
			delete(p.children, child)
			p.mu.Unlock()
		}()
	})
	return ns.server
}

// closeWithSession closes p when the one session of its server ends:
// from the moment it initializes (see onInitialized), or, for a session
// that never does, when a minute has passed (at once when none started).
func (p *Proxy) closeWithSession() {
	time.Sleep(time.Minute)
	for ss := range p.server.Sessions() {
		p.endWith(ss)
		return
	}
	p.Close()
}

// endWith closes p (a session proxy) when ss ends; once.
func (p *Proxy) endWith(ss *mcp.ServerSession) {
	if !p.lazy || !p.watching.CompareAndSwap(false, true) {
		return
	}
	go func() {
		_ = ss.Wait()
		p.Close()
	}()
}
