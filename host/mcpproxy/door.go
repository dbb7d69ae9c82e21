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
	// SessionTimeout ends a session whose client has had no request of
	// it open (no POST in flight, no GET stream open) for that long (and
	// its upstream session with it); 0 means DefaultSessionTimeout.
	SessionTimeout time.Duration
}

// DefaultSessionTimeout is how long an HTTP session may stay unused (no
// request of it open) before it is ended, unless
// HTTPOptions.SessionTimeout says otherwise.
const DefaultSessionTimeout = 30 * time.Minute

// Handler returns the proxy's MCP endpoint over streamable HTTP: the
// door `compact mcp --listen` serves.
//
// Each HTTP session has an upstream session of its own (for a command
// upstream, a process of its own), connected when the client's
// initialize starts the session, announcing exactly that client's
// capabilities (see sessionFor), and ended when the session ends: deleted
// by the client, or unused for SessionTimeout (no request of it open: a
// client listening on its GET stream, or waiting for a long call, is
// using its session; see idleSessions). So clients never see each other's resources,
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
	// The go-sdk's own timeout counts only POSTs in flight as use: it
	// would end the session of a client listening on its GET stream.
	// The door's (idleSessions) counts every request.
	h := mcp.NewStreamableHTTPHandler(p.sessionServer,
		&mcp.StreamableHTTPOptions{Logger: log, MaxRequestBodyBytes: o.MaxRequestBodyBytes,
			EventStore: mcp.NewMemoryEventStore(nil)})
	// The pass-through reads each body first: under the go-sdk's limit.
	limit := o.MaxRequestBodyBytes
	if limit == 0 {
		limit = mcp.DefaultMaxRequestBodyBytes
	}
	return &wireHandler{next: h, w: p.wire, max: limit, idle: newIdleSessions(timeout, h)}
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

// idleSessions ends the HTTP sessions whose client has had no request of
// them open for timeout: the clock of a session stops while any of its
// requests is open (a POST in flight, its GET stream, a resumed stream)
// and starts again when the last one ends, so a session is never ended
// under a client that still uses it. A session is known from the moment
// the response to its initialize names it (before its client can send
// anything on it) until it is ended (here, or deleted by its client:
// then the entry goes when its clock runs out).
type idleSessions struct {
	timeout time.Duration
	next    http.Handler // the go-sdk's handler, which ends a session on DELETE
	mu      sync.Mutex
	m       map[string]*idleSession
}

// idleSession is the clock of one session.
type idleSession struct {
	open  int         // requests of the session open now
	timer *time.Timer // running while open == 0
	gen   uint64      // counts the clock's starts
	// ending is closed once the session, whose clock ran out, is ended;
	// nil before.
	ending chan struct{}
}

func newIdleSessions(timeout time.Duration, next http.Handler) *idleSessions {
	return &idleSessions{timeout: timeout, next: next, m: map[string]*idleSession{}}
}

// started records a new session, with the request that started it open.
func (s *idleSessions) started(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[id]; !ok {
		s.m[id] = &idleSession{open: 1}
	}
}

// acquire records a request of session id as open; false when the
// session is not known (the go-sdk answers it as it does any unknown
// session).
func (s *idleSessions) acquire(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[id]
	if !ok {
		return false
	}
	if e.ending != nil {
		// Its clock ran out: the request is for a session that ends
		// now, answered as one that has ended, never cut off.
		s.mu.Unlock()
		<-e.ending
		s.mu.Lock()
		return false
	}
	e.open++
	e.gen++
	if e.timer != nil {
		e.timer.Stop()
		e.timer = nil
	}
	return true
}

// release records the end of a request of session id; when it was the
// last one open, the session's clock starts.
func (s *idleSessions) release(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.m[id]
	if !ok {
		return
	}
	if e.open--; e.open > 0 {
		return
	}
	e.gen++
	gen := e.gen
	e.timer = time.AfterFunc(s.timeout, func() { s.expire(id, e, gen) })
}

// expire ends session id when its clock, started as generation gen, ran
// out with no request open (a request that arrived meanwhile stopped
// that clock, even when too late to stop its timer).
func (s *idleSessions) expire(id string, e *idleSession, gen uint64) {
	s.mu.Lock()
	if s.m[id] != e || e.open > 0 || e.gen != gen || e.ending != nil {
		s.mu.Unlock()
		return
	}
	e.ending = make(chan struct{})
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.m, id)
		s.mu.Unlock()
		close(e.ending)
	}()
	// The go-sdk ends a session on its client's DELETE; nothing else of
	// its handler ends one by id.
	req, err := http.NewRequest(http.MethodDelete, "/", nil)
	if err != nil {
		return
	}
	req.Header.Set("Mcp-Session-Id", id)
	s.next.ServeHTTP(discardResponse{http.Header{}}, req)
}

// discardResponse is a ResponseWriter that keeps nothing.
type discardResponse struct{ h http.Header }

func (d discardResponse) Header() http.Header         { return d.h }
func (d discardResponse) Write(b []byte) (int, error) { return len(b), nil }
func (d discardResponse) WriteHeader(int)             {}
