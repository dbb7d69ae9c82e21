package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/host/server"
	"github.com/toolcompact/compact/schemas"
)

// The HTTP API compacts one tool result per POST /v1/compact.
func Example() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "compact-example-")
	defer os.RemoveAll(dir)
	st, _ := artifact.NewDir(dir, artifact.Options{})
	ctr, _ := budget.NewCounter("o200k_base")
	eng, err := host.New(ctx, host.WithStore(st), host.WithCounter(ctr), host.WithLazyPlugins())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer eng.Close(ctx)
	srv, err := server.New(server.Config{Engine: server.Adapt(eng)})
	if err != nil {
		fmt.Println(err)
		return
	}
	ts := httptest.NewServer(srv) // compact serve listens on 127.0.0.1:8377
	defer ts.Close()

	var lines []string
	for i := 1; i <= 1000; i++ {
		lines = append(lines, fmt.Sprintf("GET /api/items/%d 200 %dms", i, i%50))
	}
	body, _ := json.Marshal(map[string]any{"tool": "access_log", "content": strings.Join(lines, "\n"), "budget": 300})
	resp, err := http.Post(ts.URL+"/v1/compact", "application/json", strings.NewReader(string(body)))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var res schemas.Result
	json.NewDecoder(resp.Body).Decode(&res)
	fmt.Println(resp.StatusCode, res.Level, res.Collections[0].Count, res.Tokens.After <= 300)

	// The original is one GET away.
	raw, err := http.Get(ts.URL + "/v1/artifacts/" + res.Artifact.Handle)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer raw.Body.Close()
	fmt.Println(raw.ContentLength == int64(len(strings.Join(lines, "\n"))))
	// Output:
	// 200 artifact 1000 true
	// true
}
