package budget_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolcompact/compact/budget"
)

func ExampleNewCounter() {
	c, err := budget.NewCounter("") // o200k_base, compiled in: nothing is downloaded
	if err != nil {
		panic(err)
	}
	fmt.Println(c.Encoding(), c.Count("hello world"))
	// Special-token text is ordinary text, never a panic.
	fmt.Println(c.Count("<|endoftext|>") > 1)
	// Output:
	// o200k_base 2
	// true
}

func ExampleDetectShape() {
	out := []byte(`{"total_count":3,"items":[{"number":1,"title":"a"},{"number":2,"title":"b"},{"number":3}]}`)
	shape, err := budget.DetectShape(out, nil)
	if err != nil {
		panic(err)
	}
	c := shape.Collections[0]
	fmt.Println(shape.Format, c.Path, c.Kind, c.Count)
	for _, f := range c.Fields {
		fmt.Println(f.Name, f.Types, f.Present)
	}
	_ = budget.EachRecord(out, shape, ".items", func(i int, raw []byte) error {
		fmt.Println(i, string(raw))
		return nil
	})
	// Output:
	// json .items array 3
	// number [number] 3
	// title [string] 2
	// 0 {"number":1,"title":"a"}
	// 1 {"number":2,"title":"b"}
	// 2 {"number":3}
}

func ExamplePipeline_Run() {
	c, _ := budget.NewCounter("")
	p := budget.NewPipeline(c)
	out := []byte(`[
  {"id": 1, "name": "api", "state": "running", "url": "https://example.com/1", "owner": null},
  {"id": 2, "name": "db", "state": "running", "url": "https://example.com/2", "owner": null},
  {"id": 3, "name": "cache", "state": "running", "url": "https://example.com/3", "owner": "ops"}
]`)
	res, err := p.Run(context.Background(), budget.Input{
		Tool: "services.list",
		Data: out,
		// Budget is smaller than the output, so level 1 applies the rules.
		Budget: 80,
		Rules:  budget.Rules{Drop: []string{"url"}, Defaults: true, Format: "table"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Level, res.Tokens.After <= res.Tokens.Budget, res.Tokens.After == c.Count(res.Content))
	// A lossy level 1 starts with one notice line for the model.
	notice, payload := budget.SplitNotice(res.Content)
	fmt.Println(notice)
	fmt.Println(strings.ReplaceAll(payload, "\t", `\t`)) // cells are tab-separated
	for _, a := range res.Actions {
		fmt.Println(a.Kind, a.Target, a.Count, a.Detail)
	}
	for _, col := range res.Collections {
		fmt.Println(col.Path, col.Count, col.Shown)
	}
	// Output:
	// fields true true
	// [compact: 3 of 3 records shown; left out: 1 field (url ×3); left out as empty (null, "", [], {}): 1 field (owner ×2); every record has state="running" (left out); full original not stored: no artifact store is configured]
	// id\tname\towner
	// 1\tapi\t
	// 2\tdb\t
	// 3\tcache\tops
	// drop_constant .[].state 3 every one of the 3 records of . has "running"
	// drop_field .[].url 3 drop url
	// drop_empty .[].owner 2 null, empty string, empty array or empty object
	// table . 3 records shown as a table: header line of field names, one tab-separated line per record (docs/level1.md)
	// . 3 3
}

func ExampleCountUpTo() {
	c, err := budget.NewCounter("")
	if err != nil {
		panic(err)
	}
	text := strings.Repeat(`{"id":12345,"name":"a record with a name"},`, 5000) // 215 KB
	// Is it within 1,000 tokens? Counting stops just past the limit.
	n, over := budget.CountUpTo(c, text, 1000)
	fmt.Println(over, n > 1000, n < c.Count(text))
	// Within the limit, the count is exact.
	n, over = budget.CountUpTo(c, "hello world", 1000)
	fmt.Println(over, n)
	// Output:
	// true true true
	// false 2
}

func ExampleLowerBound() {
	data := []byte(`[{"id":1,"state":"open"},{"id":2,"state":"closed"}]`)
	c, err := budget.NewCounter("")
	if err != nil {
		panic(err)
	}
	lb, exact := budget.LowerBound(data), c.Count(string(data))
	// A text whose lower bound exceeds the budget cannot fit; no count needed.
	fmt.Println(lb <= exact, lb > 0)
	// Output:
	// true true
}
