package mcpproxy_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	budgetpkg "github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/mcpproxy"
)

// stdioProxyArg makes the test binary a proxy on stdio (Proxy.Run, as
// compact mcp serves) in front of the command in the arguments after it,
// for clients that spawn their server: TEST_BINARY stdioProxyArg TMPDIR
// BUDGET COMMAND ARGS... Its store goes under TMPDIR (stdioProxyArgs
// passes the test process's root, which TestMain removes): its client
// kills it before its own clean-up runs, and a client such as the MCP
// TypeScript SDK's starts it with an environment of its own, without
// $TMPDIR.
const stdioProxyArg = "compact-test-stdio-proxy"

// stdioProxyArgs returns the arguments after the test binary that make
// it a stdio proxy with budget in front of command.
func stdioProxyArgs(budget int, command ...string) []string {
	return append([]string{stdioProxyArg, os.TempDir(), strconv.Itoa(budget)}, command...)
}

func runStdioProxy(args []string) int {
	budget, _ := strconv.Atoi(args[1])
	ctx := context.Background()
	dir, err := os.MkdirTemp(args[0], "compact-stdio-proxy-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	st, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctr, err := budgetpkg.NewCounter("o200k_base")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	eng, err := host.New(ctx, host.WithStore(st), host.WithCounter(ctr), host.WithLogger(quietLogger()))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	p, err := mcpproxy.NewLazy(ctx, &mcpproxy.Command{Path: args[2], Args: args[3:], Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Logger: quietLogger(), Budget: budget})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer p.Close()
	if err := p.Run(ctx, &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// tasksRun is what testdata/conformance/tasks.mjs saw.
type tasksRun map[string]json.RawMessage

// runTasksClient runs the TypeScript SDK's task client against a server
// (its transport args: "stdio" COMMAND ARGS... or "http" URL).
func runTasksClient(t *testing.T, node string, args ...string) tasksRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	script, _ := filepath.Abs(filepath.Join("testdata", "conformance", "tasks.mjs"))
	cmd := exec.CommandContext(ctx, node, append([]string{script}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tasks.mjs %v: %v\n%s%s", args, err, out, stderr.String())
	}
	var r tasksRun
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("tasks.mjs %v: %v: %s", args, err, out)
	}
	return r
}

// TestTasksPassThrough: MCP tasks work through compact as directly.
// server-everything's simulate-research-query requires a task
// (execution.taskSupport "required"); the official TypeScript SDK's task
// client calls it as a task, polls it (tasks/get), fetches its result
// (tasks/result), starts another, lists (tasks/list) and cancels it
// (tasks/cancel), asks for an unknown task, and records the
// notifications/tasks/status it was sent. Through compact (on stdio, as
// compact mcp serves, and through the HTTP door with a stdio and an HTTP
// upstream) it must see what it sees directly, but for the server's name.
// On the old code the go-sdk dropped the call's task member and refused
// the tasks/ methods: the call failed ("requires task augmentation").
func TestTasksPassThrough(t *testing.T) {
	node, _, everything, _ := conformanceKit(t)
	direct := runTasksClient(t, node, "stdio", node, everything, "stdio")
	want, _ := json.Marshal(withoutServerName(direct))
	if !bytes.Contains(want, []byte(`"completed"`)) || !bytes.Contains(want, []byte(`"cancelled"`)) {
		t.Fatalf("directly, the task client did not complete and cancel tasks: %s", want)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	upURL := startHTTPServer(t, node, everything, "streamableHttp")
	for _, c := range []struct {
		name string
		args func(t *testing.T) []string
	}{
		{"stdio door", func(t *testing.T) []string {
			return append([]string{"stdio", exe}, stdioProxyArgs(8000, node, everything, "stdio")...)
		}},
		{"http door, stdio upstream", func(t *testing.T) []string {
			return []string{"http", serveProxy(t, &mcpproxy.Command{Path: node, Args: []string{everything, "stdio"}, Stderr: io.Discard}) + "/"}
		}},
		{"http door, http upstream", func(t *testing.T) []string {
			return []string{"http", serveProxy(t, &mcpproxy.HTTP{URL: upURL}) + "/"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := runTasksClient(t, node, c.args(t)...)
			var name struct{ Name string }
			json.Unmarshal(got["server"], &name)
			if name.Name != "compact(mcp-servers/everything)" {
				t.Errorf("server name %q", name.Name)
			}
			b, _ := json.Marshal(withoutServerName(got))
			if !bytes.Equal(b, want) {
				t.Errorf("through compact the task client saw\n%s\ndirectly\n%s", b, want)
			}
		})
	}
}

// withoutServerName is r with serverInfo's name left out (the proxy
// announces its own).
func withoutServerName(r tasksRun) tasksRun {
	out := tasksRun{}
	for k, v := range r {
		out[k] = v
	}
	var s map[string]json.RawMessage
	if json.Unmarshal(r["server"], &s) == nil {
		delete(s, "name")
		out["server"], _ = json.Marshal(s)
	}
	return out
}
