package mcpproxy

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget"
)

// DefaultMaxMessage is the default limit on one message from the upstream
// server: 256 MiB, sixteen times the go-sdk's own default, so that a tool
// that returns a very large output reaches the artifact store instead of
// breaking the connection.
const DefaultMaxMessage = 256 << 20

// Upstream makes a new transport to the upstream MCP server each time it
// is called; the proxy calls it again to reconnect after the upstream
// went away.
type Upstream interface {
	// Transport returns a fresh transport.
	Transport() (mcp.Transport, error)
	// String names the upstream in logs and errors.
	String() string
}

// Command is an upstream MCP server run as a child process and spoken to
// over its stdin and stdout.
type Command struct {
	// Path and Args are the program and its arguments (Args excludes the
	// program name).
	Path string
	Args []string
	// Env, when not nil, is the child's environment; nil inherits ours.
	Env []string
	// Dir is the child's working directory ("" is ours).
	Dir string
	// Stderr receives the child's standard error (nil discards it).
	Stderr io.Writer
	// MaxMessage bounds one incoming message in bytes; 0 means
	// DefaultMaxMessage.
	MaxMessage int
	// Spill, when set, is where a tools/call result larger than
	// SpillAbove goes as it is read, instead of being decoded in memory
	// (see New, which sets it to the engine's store).
	Spill budget.Store
	// SpillAbove is the frame size from which results are spilled; 0
	// means DefaultSpillAbove.
	SpillAbove int
	// TerminateAfter is how long closing waits for the child to exit
	// after its stdin is closed, before SIGTERM and then SIGKILL; 0 means
	// 2 seconds.
	TerminateAfter time.Duration
}

// String implements Upstream.
func (c *Command) String() string { return fmt.Sprintf("command %q", c.Path) }

// Transport implements Upstream: it starts the command. The go-sdk's
// CommandTransport cannot raise its 16 MiB message limit, so this is an
// IOTransport over the child's pipes with the configured limit.
func (c *Command) Transport() (mcp.Transport, error) {
	return &commandTransport{c: c}, nil
}

type commandTransport struct{ c *Command }

func (t *commandTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c := t.c
	cmd := exec.Command(c.Path, c.Args...)
	cmd.Env = c.Env
	cmd.Dir = c.Dir
	cmd.Stderr = c.Stderr
	cmd.SysProcAttr = newProcAttr()
	dieWithParent(cmd.SysProcAttr)
	// Our own pipe for stdout, not cmd.StdoutPipe: Wait closes that one
	// as soon as the child exits, which can drop its last message.
	stdout, childOut, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("mcpproxy: upstream %s: %w", c, err)
	}
	cmd.Stdout = childOut
	stdin, err := cmd.StdinPipe()
	if err != nil {
		stdout.Close()
		childOut.Close()
		return nil, fmt.Errorf("mcpproxy: upstream %s: %w", c, err)
	}
	if err := start(cmd); err != nil {
		stdout.Close()
		childOut.Close()
		return nil, fmt.Errorf("mcpproxy: starting upstream %s: %w", c, err)
	}
	childOut.Close()
	limit := c.MaxMessage
	if limit == 0 {
		limit = DefaultMaxMessage
	}
	term := c.TerminateAfter
	if term <= 0 {
		term = 2 * time.Second
	}
	p := &childPipes{cmd: cmd, stdin: stdin, stdout: stdout, term: term}
	if c.Spill != nil {
		at := c.SpillAbove
		if at <= 0 {
			at = DefaultSpillAbove
		}
		return newSpillConn(stdout, p, c.Spill, int64(limit), int64(at)), nil
	}
	it := &mcp.IOTransport{Reader: io.NopCloser(stdout), Writer: p, MaxLineLength: limit}
	return it.Connect(ctx)
}

// childPipes is the writing end of the child's stdin; closing it ends
// the child: stdin is closed, then SIGTERM to its process group after a
// grace period, then SIGKILL.
type childPipes struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File
	term   time.Duration
	once   sync.Once
}

func (p *childPipes) Write(b []byte) (int, error) { return p.stdin.Write(b) }

func (p *childPipes) Close() error {
	p.once.Do(func() {
		_ = p.stdin.Close()
		done := make(chan struct{})
		go func() {
			_ = p.cmd.Wait() // the exit status is not a close failure
			close(done)
		}()
		pid := p.cmd.Process.Pid
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
			select {
			case <-done:
			case <-time.After(p.term):
				_ = signalGroup(pid, sig)
				continue
			}
			break
		}
		<-done
		// The read loop ends on EOF or on this close.
		_ = p.stdout.Close()
	})
	return nil
}

// HTTP is an upstream MCP server reached over streamable HTTP.
type HTTP struct {
	// URL is the MCP endpoint.
	URL string
	// Client is the HTTP client (http.DefaultClient when nil). Its
	// transport is wrapped, not changed.
	Client *http.Client
	// MaxMessage bounds one message (a response body or one server-sent
	// event) in bytes; 0 means DefaultMaxMessage. A message over it is
	// read to its end without being kept and the call gets an error.
	MaxMessage int
	// Spill, when set, is where a tools/call result larger than
	// SpillAbove goes as it is read, instead of being decoded in memory
	// (see New, which sets it to the engine's store).
	Spill budget.Store
	// SpillAbove is the message size from which results are spilled; 0
	// means DefaultSpillAbove.
	SpillAbove int
	// Logger receives warnings about discarded messages (slog.Default
	// when nil).
	Logger *slog.Logger
}

// String implements Upstream.
func (h *HTTP) String() string { return fmt.Sprintf("url %q", h.URL) }

// Transport implements Upstream. Every response goes through a
// transport that enforces MaxMessage and spills large tool results to
// Spill as they are read (see httpspill.go), so that no message is held
// whole in memory twice, or at all when it is over the limit.
func (h *HTTP) Transport() (mcp.Transport, error) { return h.transport(nil) }

// transport is Transport with the proxy's divert (see notify.go), nil
// for none.
func (h *HTTP) transport(divert func(jsonrpc.Message, string) bool) (mcp.Transport, error) {
	limit := h.MaxMessage
	if limit <= 0 {
		limit = DefaultMaxMessage
	}
	at := h.SpillAbove
	if at <= 0 {
		at = DefaultSpillAbove
	}
	base := h.Client
	if base == nil {
		base = http.DefaultClient
	}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	log := h.Logger
	if log == nil {
		log = slog.Default()
	}
	client := *base
	client.Transport = &spillRoundTripper{base: rt, store: h.Spill, limit: int64(limit), spillAt: int64(at), log: log, divert: divert}
	// The SDK's own cap on one event sits just above ours: a message
	// over the limit never reaches it (it is replaced by an error).
	return &mcp.StreamableClientTransport{Endpoint: h.URL, HTTPClient: &client, MaxEventSize: limit + 64<<10, MaxRetries: 1}, nil
}

// InProcess is an upstream MCP server in this process, reached through
// in-memory transports: for embedding compact in a Go program that
// builds its tools with the go-sdk, and for examples.
type InProcess struct {
	// Server is the upstream server.
	Server *mcp.Server
}

// String implements Upstream.
func (u *InProcess) String() string { return "in-process server" }

// Transport implements Upstream: it connects Server to one end of a new
// in-memory pipe and returns the other end.
func (u *InProcess) Transport() (mcp.Transport, error) {
	ct, st := mcp.NewInMemoryTransports()
	if _, err := u.Server.Connect(context.Background(), st, nil); err != nil {
		return nil, fmt.Errorf("mcpproxy: in-process upstream: %w", err)
	}
	return ct, nil
}
