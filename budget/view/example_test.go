package view_test

import (
	"fmt"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/view"
)

// Example builds the view of a small list of pods and fills it to a
// budget: the facts, the profile of the collection, the rows with the
// reason each is there, and the queries for what is not shown.
func Example() {
	data := []byte(`{"kind":"List","items":[
{"name":"api-1","phase":"Running","restarts":0},
{"name":"api-2","phase":"Running","restarts":1},
{"name":"api-3","phase":"Running","restarts":0},
{"name":"api-4","phase":"Running","restarts":4127},
{"name":"api-5","phase":"Running","restarts":0},
{"name":"db-0","phase":"Failed","restarts":2},
{"name":"db-1","phase":"Running","restarts":0},
{"name":"db-2","phase":"Running","restarts":0},
{"name":"web-1","phase":"Running","restarts":0},
{"name":"web-2","phase":"Running","restarts":0}]}`)
	shape, err := budget.DetectShape(data, []string{".items"})
	if err != nil {
		panic(err)
	}
	in := view.Input{Tool: "kubectl.pods", ContentType: shape.ContentType, Format: shape.Format,
		Data: data, Handle: budget.RefOf("3d38d105ebf2"), Budget: 320, TokensBefore: 200}
	for _, c := range shape.Collections {
		in.Collections = append(in.Collections, view.Collection{Path: c.Path, Kind: c.Kind, Count: c.Count,
			Each: func(fn func(int, []byte) error) error { return budget.EachRecord(data, shape, c.Path, fn) }})
	}
	v, err := view.Build(in)
	if err != nil {
		panic(err)
	}
	counter, err := budget.NewCounter("")
	if err != nil {
		panic(err)
	}
	f, err := v.Fill(counter, 320)
	if err != nil {
		panic(err)
	}
	fmt.Print(f.Text)
	// Output:
	// [compact: this output is too large for its budget of 320 tokens; the full original is stored as artifact:3d38d105ebf2]
	// tool: kubectl.pods; 514 bytes of application/json; 200 tokens
	// outside the collections:
	//   kind: List
	// collection .items (array): 10 records; showing 2 of 10; identity: name
	//   name (string): identity, 10 distinct, longest 5 chars
	//   phase (string): Running 9, Failed 1
	//   restarts (number): 0 7, 1 1, 2 1, 4127 1; sum 4130; max 4127 (api-4)
	// rows (tab-separated; cells over 48 chars cut, marked …[+N chars]):
	// #	name	restarts	phase	why
	// 3	api-4	4127	Running	rare restarts (1 of 10); restarts 3.0σ; largest restarts
	// 5	db-0	2	Failed	phase=Failed (1 of 10); rare restarts (1 of 10)
	//   not shown: 8 of 10 records; get exactly them: compact artifact query artifact:3d38d105ebf2 --jq '.items | del(.[3], .[5])'
	//   one record by its name: compact artifact query artifact:3d38d105ebf2 --jq '.items[] | select(.name == "api-3")'
}
