package mcpproxy_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/host/mcpproxy"
)

// upstreamLog is what testdata/conformance/clienttasks-server.mjs logged:
// the methods it received in order, and the params of each initialize.
type upstreamLog struct {
	methods []string
	inits   []json.RawMessage
}

func readUpstreamLog(t *testing.T, path string) upstreamLog {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the upstream logged nothing: %v", err)
	}
	var l upstreamLog
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("upstream log line %q: %v", sc.Text(), err)
		}
		l.methods = append(l.methods, m.Method)
		if m.Method == "initialize" {
			l.inits = append(l.inits, m.Params)
		}
	}
	return l
}

// initCaps is the capabilities member of initialize params, decoded.
func initCaps(t *testing.T, params json.RawMessage) any {
	t.Helper()
	var p struct {
		Caps any `json:"capabilities"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		t.Fatal(err)
	}
	return p.Caps
}

// clientTasksRun runs testdata/conformance/clienttasks-client.mjs with
// args and returns the tool text it printed.
func clientTasksRun(t *testing.T, node string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	script, _ := filepath.Abs(filepath.Join("testdata", "conformance", "clienttasks-client.mjs"))
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("clienttasks-client.mjs %v: %v\n%s%s", args, err, out, stderr.String())
	}
	var r struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("clienttasks-client.mjs: %v: %s", err, out)
	}
	return r.Text
}

// TestClientCapabilitiesAndTasks: through compact, an upstream sees one
// initialize, before any other request, carrying exactly the
// capabilities the client announced (tasks and experimental ones
// included), as it does directly; and the client's tasks work: the
// upstream (on the official TypeScript SDK, strict about capabilities)
// asks the client for input as a task, polls it with tasks/get, lists it
// with tasks/list and fetches it with tasks/result, all answered by the
// client (the TypeScript SDK's task store). Checked on stdio (Run, as
// compact mcp serves) and through the HTTP door with a stdio and an HTTP
// upstream. On the old code the stdio upstream was initialized twice
// (first announcing nothing, then restarted announcing elicitation), the
// tasks capability was never announced (the strict upstream refused to
// ask for a task), and the go-sdk refused tasks/get asked of the client.
func TestClientCapabilitiesAndTasks(t *testing.T) {
	node, _, _, _ := conformanceKit(t)
	server, _ := filepath.Abs(filepath.Join("testdata", "conformance", "clienttasks-server.mjs"))
	dir := t.TempDir()
	directLog := filepath.Join(dir, "direct")
	want := clientTasksRun(t, node, "stdio", node, server, "stdio", directLog)
	direct := readUpstreamLog(t, directLog)
	if len(direct.inits) != 1 || !bytes.Contains([]byte(want), []byte(`"polled":"completed"`)) || !bytes.Contains([]byte(want), []byte(`"Ada"`)) {
		t.Fatalf("directly: %d initializes, tool text %s", len(direct.inits), want)
	}
	wantCaps := initCaps(t, direct.inits[0])
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args func(t *testing.T, log string) []string
	}{
		{"stdio door", func(t *testing.T, log string) []string {
			return append([]string{"stdio", exe}, stdioProxyArgs(8000, node, server, "stdio", log)...)
		}},
		{"http door, stdio upstream", func(t *testing.T, log string) []string {
			return []string{"http", serveProxy(t, &mcpproxy.Command{Path: node, Args: []string{server, "stdio", log}, Stderr: io.Discard}) + "/"}
		}},
		{"http door, http upstream", func(t *testing.T, log string) []string {
			return []string{"http", serveProxy(t, &mcpproxy.HTTP{URL: startHTTPServer(t, node, server, "http", log)}) + "/"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			for i := range 3 {
				log := filepath.Join(t.TempDir(), "upstream.log")
				got := clientTasksRun(t, node, c.args(t, log)...)
				if got != want {
					t.Errorf("run %d: through compact the tool said\n%s\ndirectly\n%s", i, got, want)
				}
				l := readUpstreamLog(t, log)
				if len(l.inits) != 1 || len(l.methods) == 0 || l.methods[0] != "initialize" {
					t.Fatalf("run %d: the upstream got %d initializes; messages in order: %v", i, len(l.inits), l.methods)
				}
				if got := initCaps(t, l.inits[0]); !reflect.DeepEqual(got, wantCaps) {
					gb, _ := json.Marshal(got)
					wb, _ := json.Marshal(wantCaps)
					t.Errorf("run %d: the upstream was told the client's capabilities are\n%s\ndirectly\n%s", i, gb, wb)
				}
			}
		})
	}
}

// TestLazyUpstreamFailsClearly: an upstream that exits before it answers
// (a command started by NewLazy that dies at once) makes the client's
// initialize fail with an error naming the upstream, on stdio (Run) and
// through the HTTP door, and the proxy goes on serving (a second client
// gets the same clear error, not a hang).
func TestLazyUpstreamFailsClearly(t *testing.T) {
	eng, _ := newEngine(t, 8000)
	up := &mcpproxy.Command{Path: "sh", Args: []string{"-c", "exit 3"}, Stderr: io.Discard}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := mcpproxy.NewLazy(ctx, up, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	st, ct := mcp.NewInMemoryTransports()
	go p.Run(ctx, st)
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	if _, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"}); err == nil || !strings.Contains(err.Error(), `upstream command "sh"`) {
		t.Errorf("stdio: initialize with an upstream that exited: %v", err)
	}
	srv := httptest.NewServer(p.Handler(mcpproxy.HTTPOptions{}))
	defer srv.Close()
	for i := range 2 {
		_, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err == nil || !strings.Contains(err.Error(), `upstream command "sh"`) {
			t.Errorf("http client %d: initialize with an upstream that exited: %v", i, err)
		}
	}
	if _, err := mcpproxy.NewLazy(ctx, &mcpproxy.Command{Path: filepath.Join(t.TempDir(), "no-such-server")}, mcpproxy.Adapt(eng), mcpproxy.Options{}); err == nil || !strings.Contains(err.Error(), "no-such-server") {
		t.Errorf("a program that cannot be started: %v", err)
	}
}
