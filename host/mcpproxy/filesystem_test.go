package mcpproxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host/mcpproxy"
	"github.com/toolcompact/compact/schemas"
)

var lookPath = exec.LookPath

// fsTree makes a directory tree of dirs directories with files files
// each, and a text file of lines lines; it returns the root.
func fsTree(t testing.TB, dirs, files, lines int) string {
	t.Helper()
	root := t.TempDir()
	for d := 0; d < dirs; d++ {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := 0; f < files; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%03d_file%03d.go", d, f)), []byte("package x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var b strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&b, "%d\tINFO request served path=/api/v1/items/%d status=200 took=%dms\n", i, i, i%97)
	}
	if err := os.WriteFile(filepath.Join(root, "big.log"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// direct calls the same server without the proxy, for the ground truth.
func direct(t testing.TB, node, script, root, tool string, args map[string]any) string {
	t.Helper()
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, &mcp.ClientOptions{Capabilities: &mcp.ClientCapabilities{}})
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command(node, script, root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text
}

func TestFilesystemServer(t *testing.T) {
	node, script := nodeServer(t)
	root := fsTree(t, 40, 25, 4000)
	eng, store := newEngine(t, 1500)
	leakCheck(t)
	h := startProxy(t, &mcpproxy.Command{Path: node, Args: []string{script, root}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{Budget: 1500})
	ctx := context.Background()

	// Tools are forwarded with their schemas, plus read_artifact.
	tools, err := h.client.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tl := range tools.Tools {
		byName[tl.Name] = tl
	}
	for _, want := range []string{"directory_tree", "read_text_file", "write_file", mcpproxy.ReadArtifactTool} {
		if byName[want] == nil {
			t.Fatalf("tool %s not listed; have %d tools", want, len(tools.Tools))
		}
	}
	if d := byName["write_file"].Description; !strings.HasPrefix(d, "Create a new file") || !strings.Contains(d, "artifact reference") {
		t.Errorf("write_file description not forwarded with the handle sentence: %q", d)
	}
	if byName["directory_tree"].OutputSchema == nil {
		t.Errorf("directory_tree output schema not forwarded")
	}

	t.Run("directory_tree", func(t *testing.T) {
		want := direct(t, node, script, root, "directory_tree", map[string]any{"path": root})
		res := h.call(t, "directory_tree", map[string]any{"path": root})
		if res.IsError {
			t.Fatalf("error result: %s", text(t, res))
		}
		m := meta(t, res)
		if len(m.Results) != 1 {
			t.Fatalf("meta: %+v", m)
		}
		r := m.Results[0]
		if r.Level != schemas.LevelArtifact || r.Artifact == nil {
			t.Fatalf("level %q, artifact %v: a %d-byte tree should not fit 1500 tokens", r.Level, r.Artifact, len(want))
		}
		if r.Tokens.After > 1500 {
			t.Errorf("result is %d tokens, budget 1500", r.Tokens.After)
		}
		if !strings.Contains(text(t, res), r.Artifact.Handle) {
			t.Errorf("the model does not see the handle %s", r.Artifact.Handle)
		}
		// 40 directories and big.log.
		if got := countOf(r.Collections, "."); got != 41 {
			t.Errorf("root collection count %d, want 41 entries (%+v)", got, r.Collections)
		}
		// The stored artifact is the exact upstream output.
		if got := stored(t, store, r.Artifact.Handle); got != want {
			t.Errorf("stored artifact differs from the direct output (%d vs %d bytes)", len(got), len(want))
		}
		if r.Artifact.Bytes != int64(len(want)) {
			t.Errorf("artifact bytes %d, want %d", r.Artifact.Bytes, len(want))
		}
		// structuredContent mirrored the text: it now holds the summary.
		sc, _ := res.StructuredContent.(map[string]any)
		if sc == nil || sc["content"] != text(t, res) || m.Structured != "mirrored" {
			t.Errorf("structuredContent not mirrored (%q): %v", m.Structured, res.StructuredContent)
		}

		// read_artifact: jq over the real data.
		ans := h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle, "op": "jq", "filter": `[.. | objects | select(.type == "file")] | length`})
		if ans.IsError || strings.TrimSpace(firstLine(text(t, ans))) != "1001" {
			t.Errorf("jq file count: %q, want 1001", text(t, ans))
		}
		ans = h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle + "[8].name", "op": "get"})
		if ans.IsError || !strings.Contains(text(t, ans), "pkg007") {
			t.Errorf("get [8].name: %q", text(t, ans))
		}
		ans = h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle, "op": "search", "text": "pkg033", "limit": 3})
		if ans.IsError || !strings.Contains(text(t, ans), "pkg033") {
			t.Errorf("search pkg033: %q", text(t, ans))
		}

		// Memory pointer: a handle with a path as a tool argument.
		out := filepath.Join(root, "name.txt")
		res = h.call(t, "write_file", map[string]any{"path": out, "content": r.Artifact.Handle + "[8].name"})
		if res.IsError {
			t.Fatalf("write_file with a handle path: %s", text(t, res))
		}
		if b, _ := os.ReadFile(out); string(b) != "pkg007" {
			t.Errorf("upstream received %q, want pkg007", b)
		}
		if meta(t, res).Pointers != 1 {
			t.Errorf("pointers = %d, want 1", meta(t, res).Pointers)
		}
	})

	t.Run("read_text_file", func(t *testing.T) {
		path := filepath.Join(root, "big.log")
		want, _ := os.ReadFile(path)
		res := h.call(t, "read_text_file", map[string]any{"path": path})
		m := meta(t, res)
		r := m.Results[0]
		if r.Level != schemas.LevelArtifact || r.Artifact == nil {
			t.Fatalf("level %q: a %d-byte file should not fit 1500 tokens", r.Level, len(want))
		}
		if got := stored(t, store, r.Artifact.Handle); got != string(want) {
			t.Errorf("stored artifact differs from the file (%d vs %d bytes)", len(got), len(want))
		}
		if got := countOf(r.Collections, "."); got != 4000 {
			t.Errorf("line count %d, want 4000 (%+v)", got, r.Collections)
		}
		ans := h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle, "op": "slice", "offset": 2499, "limit": 2})
		if tx := text(t, ans); ans.IsError || !strings.Contains(tx, "/items/2500 ") || !strings.Contains(tx, "/items/2501 ") || strings.Contains(tx, "/items/2502 ") {
			t.Errorf("slice 2499+2: %q", tx)
		}
		ans = h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": r.Artifact.Handle, "op": "search", "text": "items/3777", "limit": 1})
		if tx := text(t, ans); ans.IsError || !strings.Contains(tx, "items/3777 ") {
			t.Errorf("search: %q", tx)
		}

		// Memory pointer: the whole file flows into write_file without
		// passing through the model.
		out := filepath.Join(root, "copy.log")
		res = h.call(t, "write_file", map[string]any{"path": out, "content": r.Artifact.Handle})
		if res.IsError {
			t.Fatalf("write_file with a handle: %s", text(t, res))
		}
		if b, _ := os.ReadFile(out); string(b) != string(want) {
			t.Errorf("upstream received %d bytes, want the full %d", len(b), len(want))
		}
	})

	t.Run("missing handle", func(t *testing.T) {
		// An explicit reference that does not resolve is refused.
		out := filepath.Join(root, "never.txt")
		res := h.call(t, "write_file", map[string]any{"path": out, "content": mcpproxy.RefPrefix + "0123456789abcdef01"})
		if !res.IsError || !strings.Contains(text(t, res), "$.content") || !strings.Contains(text(t, res), "0123456789abcdef01") {
			t.Errorf("want a clear error naming the argument and the reference, got %v %q", res.IsError, text(t, res))
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("the upstream was called although the reference does not exist")
		}
		// A bare hex string the proxy never handed out is data: it
		// reaches the upstream as it is.
		plain := filepath.Join(root, "plain.txt")
		res = h.call(t, "write_file", map[string]any{"path": plain, "content": "0123456789abcdef01"})
		if b, _ := os.ReadFile(plain); res.IsError || string(b) != "0123456789abcdef01" {
			t.Errorf("a bare hex string: %v %q, file %q; want it written as it is", res.IsError, text(t, res), b)
		}
		ans := h.call(t, mcpproxy.ReadArtifactTool, map[string]any{"ref": "0123456789abcdef01"})
		if !ans.IsError || !strings.Contains(text(t, ans), "not found") {
			t.Errorf("read_artifact of a missing handle: %v %q", ans.IsError, text(t, ans))
		}
	})

	t.Run("small result unchanged", func(t *testing.T) {
		res := h.call(t, "list_allowed_directories", map[string]any{})
		m := meta(t, res)
		if m.Results[0].Level != schemas.LevelNone || !strings.Contains(text(t, res), root) {
			t.Errorf("small result: level %q text %q", m.Results[0].Level, text(t, res))
		}
	})
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

func countOf(cs []schemas.Collection, path string) int {
	for _, c := range cs {
		if c.Path == path {
			return c.Count
		}
	}
	return -1
}

func stored(t testing.TB, st budget.Store, h string) string {
	t.Helper()
	rc, _, err := st.Open(context.Background(), budget.Handle(h))
	if err != nil {
		t.Fatalf("open artifact %s: %v", h, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

var _ = json.Marshal

func TestStripOutputSchemas(t *testing.T) {
	node, script := nodeServer(t)
	eng, _ := newEngine(t, 1500)
	root := t.TempDir()
	h := startProxy(t, &mcpproxy.Command{Path: node, Args: []string{script, root}, Stderr: io.Discard}, mcpproxy.Adapt(eng), mcpproxy.Options{StripOutputSchemas: true})
	tools, err := h.client.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.OutputSchema != nil {
			t.Errorf("%s still has an output schema", tl.Name)
		}
		if tl.Name == "directory_tree" && tl.InputSchema == nil {
			t.Errorf("input schema lost")
		}
	}
}
