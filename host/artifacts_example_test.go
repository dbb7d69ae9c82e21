package host_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/host"
)

// A stored artifact answers jq, slice and search queries through the
// engine, within a token budget.
func ExampleEngine_QueryArtifact() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "compact-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	st, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		log.Fatal(err)
	}
	eng, err := host.New(ctx, host.WithStore(st), host.WithLazyPlugins())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	h, _, err := st.Put(ctx, strings.NewReader(`[{"id":1,"name":"disk full"},{"id":2,"name":"all good"},{"id":3,"name":"disk slow"}]`), budget.Meta{Tool: "alerts"})
	if err != nil {
		log.Fatal(err)
	}

	for _, q := range []host.ArtifactQuery{
		{Ref: string(h), Op: "jq", Filter: "map(.id) | add"},
		{Ref: string(h) + "[1].name", Op: "get"},
		{Ref: string(h), Op: "slice", Offset: 2, Limit: 1},
	} {
		a, err := eng.QueryArtifact(ctx, q)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d of %d returned\n%s\n", q.Op, a.Returned, a.Total, strings.ReplaceAll(a.Content, string(h), "HANDLE"))
	}
	_, err = eng.QueryArtifact(ctx, host.ArtifactQuery{Ref: string(h), Op: "grep"})
	fmt.Println(err)
	// Output:
	// jq: 1 of 1 returned
	// 6
	// get: 1 of 1 returned
	// "all good"
	// slice: 1 of 3 returned
	// # records 2-2 of 3 at . of HANDLE
	// 2	{"id":3,"name":"disk slow"}
	//
	// bad query: op "grep": want get, jq, slice or search
}
