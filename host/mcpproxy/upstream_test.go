package mcpproxy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The test binary doubles as a real MCP server over stdio that misbehaves
// on request (a fault-injection upstream): when $COMPACT_TEST_UPSTREAM is
// set, TestMain runs it instead of the tests.
const envUpstream = "COMPACT_TEST_UPSTREAM"

func TestMain(m *testing.M) {
	if os.Getenv(envUpstream) != "" {
		os.Exit(runFaultyUpstream())
	}
	if len(os.Args) > 4 && os.Args[1] == stdioProxyArg {
		os.Exit(runStdioProxy(os.Args[2:]))
	}
	// Everything the tests and the processes they start put in the
	// temporary directory goes under one root removed at the end: a
	// stdio proxy the test binary runs as (runStdioProxy) is killed by
	// its client before its own clean-up runs, and left its store
	// behind on every run before.
	root, err := os.MkdirTemp("", "compact-mcpproxy-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", root)
	code := m.Run()
	os.RemoveAll(root)
	os.Exit(code)
}

// faultyUpstream returns the Command that runs the fault-injection
// server.
func faultyUpstreamArgs(t testing.TB) (string, []string) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe, nil
}

type sizeArgs struct {
	Bytes int `json:"bytes"`
}

type echoArgs struct {
	Text string `json:"text"`
}

type noArgs struct{}

// runFaultyUpstream serves these tools on stdio:
//
//	echo {text}        returns text (and records it in $COMPACT_TEST_LOG)
//	lines {bytes}      returns numbered lines, about bytes long
//	records {bytes}    returns a JSON array of records, about bytes long,
//	                   with the same array as structuredContent {"items": [...]}
//	fail               returns an error result
//	hang               never answers
//	exit               exits the process mid-call
//	garbage            writes a line that is not JSON-RPC, then exits
//	progress           sends 3 progress notifications and a log message
//	add_tool {text}    adds a tool named text (a tools/list_changed)
//
// and a prompt "review" and a resource "test://readme". With
// $COMPACT_TEST_UPSTREAM set to "http" (or "http-json") it serves the same
// over streamable HTTP instead, with server-sent events (or JSON
// response bodies): see serveHTTPUpstream.
func runFaultyUpstream() int {
	s := mcp.NewServer(&mcp.Implementation{Name: "faulty", Version: "0.1"}, &mcp.ServerOptions{
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}},
	})
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Echo text."}, func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		if p := os.Getenv("COMPACT_TEST_LOG"); p != "" {
			f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				json.NewEncoder(f).Encode(in)
				f.Close()
			}
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "lines", Description: "Numbered lines."}, func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: linesText(in.Bytes)}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "records", Description: "JSON records."}, func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		var items []map[string]any
		n := 0
		for size := 0; size < in.Bytes; n++ {
			it := map[string]any{"id": n, "name": fmt.Sprintf("item-%d", n), "state": []string{"open", "closed"}[n%2], "body": "some text that describes the item in a few words"}
			items = append(items, it)
			size += 110
		}
		text, _ := json.Marshal(items)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: map[string]any{"items": items}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "fail", Description: "Fails."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "disk on fire"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "hang", Description: "Never answers."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		<-ctx.Done()
		time.Sleep(time.Hour)
		return nil, nil, ctx.Err()
	})
	mcp.AddTool(s, &mcp.Tool{Name: "exit", Description: "Exits mid-call."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		os.Exit(3)
		return nil, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "garbage", Description: "Writes a line that is not JSON-RPC."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		os.Stdout.WriteString("this is not json\n")
		time.Sleep(100 * time.Millisecond)
		os.Exit(4)
		return nil, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "progress", Description: "Reports progress."}, func(ctx context.Context, req *mcp.CallToolRequest, in noArgs) (*mcp.CallToolResult, any, error) {
		tok := req.Params.GetProgressToken()
		for i := 1; i <= 3; i++ {
			if tok != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 3, Message: fmt.Sprintf("step %d", i)})
			}
		}
		req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "warning", Logger: "faulty", Data: "half way"})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "unicode", Description: "Text full of escapes, mirrored in structuredContent."}, func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		text := unicodeText(in.Bytes)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}},
			StructuredContent: map[string]any{"content": text, "other": "small"}}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "same", Description: "structuredContent is the text's JSON (the go-sdk's typed tools)."}, func(ctx context.Context, req *mcp.CallToolRequest, in sizeArgs) (*mcp.CallToolResult, any, error) {
		var items []map[string]any
		for n, size := 0, 0; size < in.Bytes; n++ {
			items = append(items, map[string]any{"id": n, "name": fmt.Sprintf("item-%d", n), "body": "some text that describes the item"})
			size += 80
		}
		out := map[string]any{"items": items}
		text, _ := json.Marshal(out)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}, StructuredContent: out}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "add_tool", Description: "Adds the tool named text."}, func(ctx context.Context, req *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
		mcp.AddTool(s, &mcp.Tool{Name: in.Text, Description: "Added at run time."}, func(context.Context, *mcp.CallToolRequest, noArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "new"}}}, nil, nil
		})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added"}}}, nil, nil
	})
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Review a file.", Arguments: []*mcp.PromptArgument{{Name: "file", Required: true}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Review " + req.Params.Arguments["file"]}}}}, nil
		})
	s.AddResource(&mcp.Resource{URI: "test://readme", Name: "readme", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "read me"}}}, nil
		})
	if mode := os.Getenv(envUpstream); mode == "http" || mode == "http-json" {
		return serveHTTPUpstream(s, mode == "http-json")
	}
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		return 1
	}
	return 0
}

// linesText is about n bytes of numbered lines ("line 1: the quick
// brown fox...").
func linesText(n int) string {
	var b strings.Builder
	b.Grow(n + 64)
	for i := 1; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d: the quick brown fox jumps over the lazy dog\n", i)
	}
	return b.String()
}

// unicodeText is about n bytes of lines that exercise every JSON escape:
// quotes, backslashes, control characters, non-ASCII and astral runes,
// and U+2028.
func unicodeText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "%d\t\"quoted\" back\\slash /slash \x01\x1f ünïcødé 日本語 😀 \u2028 <html>&amp;\n", i)
	}
	return b.String()
}
