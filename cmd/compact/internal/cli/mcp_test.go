package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

// envCLIMain makes the test binary run the compact command itself, so
// that a client written elsewhere (the TypeScript SDK) can spawn
// "compact mcp" as a real process.
const envCLIMain = "COMPACT_CLI_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(envCLIMain) != "" {
		os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// npmDir is the Node package with the pinned MCP server and client.
func npmDir(t *testing.T) (node, dir string) {
	t.Helper()
	dir, _ = filepath.Abs(filepath.Join("..", "..", "..", "..", "host", "mcpproxy", "testdata", "npm"))
	node, err := exec.LookPath("node")
	_, serr := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	if err != nil || serr != nil {
		msg := "node or the pinned npm packages are missing: run npm ci in host/mcpproxy/testdata/npm"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return node, dir
}

// TestMCPTypeScriptClient drives "compact mcp" in front of the real
// server-filesystem from the official TypeScript SDK client.
func TestMCPTypeScriptClient(t *testing.T) {
	node, dir := npmDir(t)
	root := t.TempDir()
	for d := range 40 {
		sub := filepath.Join(root, fmt.Sprintf("dir%02d", d))
		os.Mkdir(sub, 0o755)
		for f := range 25 {
			os.WriteFile(filepath.Join(sub, fmt.Sprintf("d%02d_f%02d.txt", d, f)), []byte("x"), 0o644)
		}
	}
	storeDir := t.TempDir()
	server := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	cmd := exec.Command(node, filepath.Join(dir, "client.mjs"), root,
		os.Args[0], "mcp", "--store", storeDir, "--budget", "400", "--log-level", "warn", "--", node, server, root)
	cmd.Env = append(os.Environ(), envCLIMain+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	var got struct {
		Tools                []string
		WriteFileDescription string
		Tree                 struct {
			Text string
			Meta struct {
				Results []struct {
					Level    string
					Artifact struct{ Handle string }
				}
				Structured string
			}
			Structured map[string]any
		}
		Handle    string
		FileCount string
		Write     struct {
			Text    string
			IsError bool
		}
		Bad struct {
			Text    string
			IsError bool
		}
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	for _, want := range []string{"directory_tree", "read_artifact", "write_file"} {
		if !contains(got.Tools, want) {
			t.Errorf("tool %s not listed: %v", want, got.Tools)
		}
	}
	if !strings.Contains(got.WriteFileDescription, "artifact reference") {
		t.Errorf("write_file description: %q", got.WriteFileDescription)
	}
	if len(got.Tree.Meta.Results) != 1 || got.Tree.Meta.Results[0].Level != "artifact" || got.Handle == "" {
		t.Fatalf("directory_tree: %+v\n%s", got.Tree.Meta, got.Tree.Text)
	}
	if !strings.Contains(got.Tree.Text, got.Handle) {
		t.Errorf("the model does not see the handle")
	}
	if got.Tree.Structured["content"] != got.Tree.Text {
		t.Errorf("structuredContent not consistent with the text: %v", got.Tree.Structured)
	}
	if strings.TrimSpace(strings.SplitN(got.FileCount, "\n", 2)[0]) != "1000" {
		t.Errorf("jq file count: %q, want 1000", got.FileCount)
	}
	// The write received the whole stored tree.
	st, err := artifact.NewDir(storeDir, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := st.Open(context.Background(), budget.Handle(got.Handle))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := io.ReadAll(rc)
	rc.Close()
	written, err := os.ReadFile(filepath.Join(root, "tree.json"))
	if err != nil || got.Write.IsError {
		t.Fatalf("write_file with a handle: %v %q", err, got.Write.Text)
	}
	if !bytes.Equal(written, want) {
		t.Errorf("upstream wrote %d bytes, want the %d stored", len(written), len(want))
	}
	var tree []any
	if err := json.Unmarshal(written, &tree); err != nil || len(tree) != 40 {
		t.Errorf("written tree: %v, %d entries", err, len(tree))
	}
	if !got.Bad.IsError || !strings.Contains(got.Bad.Text, "abcdef0123456789") {
		t.Errorf("missing handle: %+v", got.Bad)
	}
	if _, err := os.Stat(filepath.Join(root, "bad.txt")); err == nil {
		t.Errorf("bad.txt was written although its handle does not exist")
	}
}

// TestMCPTypeScriptRoots: the TypeScript SDK client, with roots, spawns
// "compact mcp" in front of server-filesystem; the server asks for the
// client's roots through the proxy (which announces them upstream) and
// serves them, and follows the client's roots/list_changed.
func TestMCPTypeScriptRoots(t *testing.T) {
	node, dir := npmDir(t)
	root := t.TempDir()
	for _, d := range []string{"one", "two"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	server := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	cmd := exec.Command(node, filepath.Join(dir, "roots.mjs"), root,
		os.Args[0], "mcp", "--store", t.TempDir(), "--log-level", "warn", "--", node, server, root)
	cmd.Env = append(os.Environ(), envCLIMain+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("client: %v\n%s", err, stderr.String())
	}
	var got struct {
		First, Second string
		Asked         int
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("client output: %v\n%s", err, out)
	}
	one, two := filepath.Join(root, "one"), filepath.Join(root, "two")
	if !strings.Contains(got.First, one) || strings.Contains(got.First, two) {
		t.Errorf("allowed directories with the root %s: %q", one, got.First)
	}
	if !strings.Contains(got.Second, two) || strings.Contains(got.Second, one) {
		t.Errorf("allowed directories after the roots changed to %s: %q", two, got.Second)
	}
	if got.Asked < 2 {
		t.Errorf("the client was asked for its roots %d times, want at least 2", got.Asked)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func runCLI(ctx context.Context, args ...string) (int, string) {
	return runCLIInput(ctx, "", args...)
}

// runCLIInput is runCLI with stdin.
func runCLIInput(ctx context.Context, stdin string, args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := commands[args[0]].run(&env{ctx: ctx, args: args[1:], stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb})
	return code, out.String() + errb.String()
}

func TestSidecarRefusesOpenAddressWithoutToken(t *testing.T) {
	t.Setenv("COMPACT_TOKEN", "")
	for _, cmd := range []string{"serve", "mcp"} {
		args := []string{cmd, "--listen", "0.0.0.0:0", "--store", "off"}
		if cmd == "mcp" {
			args = append(args, "--", "true")
		}
		code, out := runCLI(context.Background(), args...)
		if code != ExitUsage || !strings.Contains(out, "token is required") {
			t.Errorf("%s on 0.0.0.0 without a token: exit %d, %q", cmd, code, out)
		}
	}
}

func TestSidecarConfigStrict(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(p, []byte("budget: 100\nlisten: 127.0.0.1:0\nbugdet: 3\n"), 0o644)
	code, out := runCLI(context.Background(), "serve", "--config", p)
	if code != ExitUsage || !strings.Contains(out, "bugdet") || !strings.Contains(out, "line 3") {
		t.Errorf("unknown key: exit %d, %q", code, out)
	}
}

// TestServeEndToEnd starts "compact serve" with a config file and a
// token, calls it, and stops it with a cancelled context (what SIGTERM
// does), checking that it shuts down cleanly.
func TestServeEndToEnd(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(p, []byte(fmt.Sprintf("listen: %s\nbudget: 50\ntoken: from-file\nstore: %s\n", addr, t.TempDir())), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var out string
	go func() {
		var code int
		code, out = runCLI(ctx, "serve", "--config", p, "--token", "from-flag", "--log-level", "warn")
		done <- code
	}()
	url := "http://" + addr
	var resp *http.Response
	for i := 0; i < 100; i++ {
		resp, err = http.Get(url + "/healthz")
		if err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("server did not start: %v", err)
	}
	resp.Body.Close()
	post := func(token string) *http.Response {
		req, _ := http.NewRequest("POST", url+"/v1/compact", strings.NewReader(`{"tool":"x","content":"hello world"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r
	}
	if r := post("from-file"); r.StatusCode != http.StatusUnauthorized {
		t.Errorf("the flag's token must win over the file's: status %d", r.StatusCode)
	}
	if r := post("from-flag"); r.StatusCode != http.StatusOK {
		t.Errorf("with the token: status %d", r.StatusCode)
	}
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("shutdown: exit %d: %s", code, out)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not shut down")
	}
}

// TestMCPListen runs "compact mcp --listen" (streamable HTTP downstream,
// with a token) in front of server-filesystem and calls it with the
// go-sdk client.
func TestMCPListen(t *testing.T) {
	node, dir := npmDir(t)
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("hello"), 0o644)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	server := filepath.Join(dir, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var out string
	go func() {
		var code int
		code, out = runCLI(ctx, "mcp", "--listen", addr, "--token", "tok", "--store", t.TempDir(), "--log-level", "warn", "--", node, server, root)
		done <- code
	}()
	url := "http://" + addr
	for i := 0; i < 200; i++ {
		if resp, err := http.Get(url + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	resp, err := http.Post(url+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d", resp.StatusCode)
	}
	hc := &http.Client{Transport: bearer{"tok"}}
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect: %v (%s)", err, out)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read_text_file", Arguments: map[string]any{"path": filepath.Join(root, "a.txt")}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "hello" {
		t.Errorf("read_text_file: %v %+v", err, res)
	}
	cs.Close()
	mresp, err := hc.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(mresp.Body)
	mresp.Body.Close()
	if !strings.Contains(string(metrics), `compact_calls_total{door="mcp",outcome="ok"`) {
		t.Errorf("metrics lack the MCP door's calls:\n%.2000s", metrics)
	}
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("exit %d: %s", code, out)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("compact mcp did not shut down")
	}
}

type bearer struct{ tok string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.tok)
	return http.DefaultTransport.RoundTrip(r)
}

func TestMCPUpstreamMissing(t *testing.T) {
	code, out := runCLI(context.Background(), "mcp", "--store", "off", "--log-level", "error", "--", filepath.Join(t.TempDir(), "no-such-server"))
	if code != ExitFailure || !strings.Contains(out, "no-such-server") {
		t.Errorf("exit %d: %q", code, out)
	}
}

// upstreamsRunning counts the processes whose command line holds token.
func upstreamsRunning(t *testing.T, token string) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Skipf("cannot count processes: %v", err)
	}
	n := 0
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(b, []byte(token)) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			s := string(st)
			if f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		n++
	}
	return n
}

// TestMCPNoOrphans: "compact mcp" in front of an upstream that ignores
// SIGTERM and the end of its input ends it when its client leaves
// (stdin closed), when it is told to stop (SIGTERM), and when it is
// killed (SIGKILL: the kernel ends the upstream, see upstream_linux.go);
// the test counts the upstream processes. The last failed on the old
// code.
func TestMCPNoOrphans(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("node is missing")
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "host", "mcpproxy", "testdata", "wire", "server.mjs"))
	for _, how := range []string{"client leaves", "SIGTERM", "SIGKILL"} {
		t.Run(how, func(t *testing.T) {
			token := fmt.Sprintf("orphan-check-%d-%d", os.Getpid(), time.Now().UnixNano())
			cmd := exec.Command(os.Args[0], "mcp", "--store", "off", "--log-level", "error", "--", node, script, "stubborn", token)
			cmd.Env = append(os.Environ(), envCLIMain+"=1")
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			for deadline := time.Now().Add(20 * time.Second); upstreamsRunning(t, token) == 0; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the upstream never started")
				}
			}
			time.Sleep(500 * time.Millisecond) // the proxy has read the upstream's lists
			switch how {
			case "SIGTERM":
				cmd.Process.Signal(syscall.SIGTERM)
			case "SIGKILL":
				cmd.Process.Kill()
			default:
				stdin.Close()
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				cmd.Process.Kill()
				t.Fatal("compact mcp did not exit")
			}
			for deadline := time.Now().Add(5 * time.Second); upstreamsRunning(t, token) > 0; time.Sleep(50 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("compact mcp exited and left %d upstream processes running", upstreamsRunning(t, token))
				}
			}
		})
	}
}

// initLine is a client's initialize request, one line of stdio.
const initLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n"

// TestMCPUpstreamProtocol: --upstream-protocol (and upstream_protocol in
// the config file) is the version the proxy asks of the upstream in its
// initialize request (the wire server logs every request line it gets);
// a version the proxy does not speak is a usage error listing those it
// does. On the old code the flag did not exist.
func TestMCPUpstreamProtocol(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("node is missing")
		}
		t.Skip("node is missing")
	}
	script, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "host", "mcpproxy", "testdata", "wire", "server.mjs"))
	cfg := filepath.Join(t.TempDir(), "mcp.yaml")
	os.WriteFile(cfg, []byte("upstream_protocol: 2024-11-05\n"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, `"protocolVersion":"2025-11-25"`},
		{[]string{"--upstream-protocol", "2025-06-18"}, `"protocolVersion":"2025-06-18"`},
		{[]string{"--config", cfg}, `"protocolVersion":"2024-11-05"`},
	} {
		args := append([]string{"mcp", "--store", "off", "--log-level", "error"}, c.args...)
		// The upstream is spoken to when a client initializes.
		code, out := runCLIInput(context.Background(), initLine, append(args, "--", node, script)...)
		var init string
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, `"method":"initialize"`) {
				init = l
			}
		}
		if code != ExitOK || !strings.Contains(init, c.want) {
			t.Errorf("%v: exit %d, initialize %q, want %s\n%s", c.args, code, init, c.want, out)
		}
	}
	code, out := runCLI(context.Background(), "mcp", "--store", "off", "--upstream-protocol", "2099-01-01", "--", node, script)
	if code != ExitUsage || !strings.Contains(out, `"2099-01-01"`) || !strings.Contains(out, "2025-11-25") {
		t.Errorf("unknown version: exit %d, %q", code, out)
	}
}
