package query_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
)

func Example() {
	dir, _ := os.MkdirTemp("", "artifacts")
	defer os.RemoveAll(dir)
	store, _ := artifact.NewDir(dir, artifact.Options{})
	counter, _ := budget.NewCounter("o200k_base")
	q, _ := query.New(store, counter, query.Options{})
	ctx := context.Background()

	h, _, _ := store.Put(ctx, strings.NewReader(`{"alarms":[
 {"name":"cpu high","state":"ALARM"},
 {"name":"disk full","state":"OK"},
 {"name":"disk slow","state":"ALARM"}]}`), budget.Meta{Tool: "cloudwatch"})
	ref := string(h)

	a, _ := q.JQ(ctx, ref, `[.alarms[] | select(.state == "ALARM") | .name]`, 500)
	fmt.Println(a.Content)
	a, _ = q.Slice(ctx, ref, query.SliceOptions{Offset: 1, Limit: 1}, 500)
	fmt.Print(a.Content)
	a, _ = q.Search(ctx, ref, "disk alarm", query.SearchOptions{Limit: 2}, 500)
	fmt.Print(a.Content)
	fmt.Println(a.Total, a.Positions)
	v, _, _ := q.Value(ctx, ref+".alarms[2].name")
	fmt.Println(string(v))
	// Output:
	// ["cpu high","disk slow"]
	// # records 1-1 of 3 at .alarms of 4e2b50d0f1de
	// 1	{"name":"disk full","state":"OK"}
	// # search "disk alarm" in .alarms of 4e2b50d0f1de: 3 of 3 records match; best 2 by BM25
	// 2	{"name":"disk slow","state":"ALARM"}
	// 0	{"name":"cpu high","state":"ALARM"}
	// 3 [2 0]
	// "disk slow"
}

// JQ reads JSON Lines as one array of the values (like jq -s) and text as
// one array of its lines; a reference's path indexes the same array.
func ExampleQuerier_JQ() {
	dir, _ := os.MkdirTemp("", "artifacts")
	defer os.RemoveAll(dir)
	store, _ := artifact.NewDir(dir, artifact.Options{})
	counter, _ := budget.NewCounter("o200k_base")
	q, _ := query.New(store, counter, query.Options{})
	ctx := context.Background()

	logs, _, _ := store.Put(ctx, strings.NewReader(`{"level":"INFO","msg":"up"}
{"level":"ERROR","msg":"disk full"}
{"level":"ERROR","msg":"disk slow"}
`), budget.Meta{Tool: "logs"})
	a, _ := q.JQ(ctx, string(logs), `length`, 500)
	fmt.Println(a.Content)
	a, _ = q.JQ(ctx, string(logs), `map(select(.level == "ERROR") | .msg)`, 500)
	fmt.Println(a.Content)
	a, _ = q.JQ(ctx, string(logs)+"[1]", `.msg`, 500)
	fmt.Println(a.Content)

	text, _, _ := store.Put(ctx, strings.NewReader("total 3\r\ndrwxr-x docs\r\n-rw-r-- go.mod\r\n"), budget.Meta{Tool: "ls"})
	a, _ = q.JQ(ctx, string(text), `[.[1:][] | split(" ")[1]]`, 500)
	fmt.Println(a.Content)
	v, _, _ := q.Value(ctx, string(text)+"[-1]")
	fmt.Printf("%q\n", v)
	// Output:
	// 3
	// ["disk full","disk slow"]
	// "disk full"
	// ["docs","go.mod"]
	// "-rw-r-- go.mod"
}
