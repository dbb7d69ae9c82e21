package pdk_test

import (
	"fmt"

	"github.com/toolcompact/compact/plugins/pdk"
)

// A plugin's logic is a pdk.Func; Process runs it over a framed input the
// way Run does inside WebAssembly.
func ExampleProcess() {
	input := []byte("{\"abi\":1,\"tool\":\"ls\",\"budget_tokens\":100,\"content_type\":\"text/plain\",\"config\":{}}\n" +
		"a.go\na.go\nb.go\n")
	out, err := pdk.Process(input, func(h pdk.Header, payload []byte) (pdk.OutputHeader, []byte, error) {
		body := pdk.GroupMarker(2) + "a.go\nb.go\n"
		return pdk.OutputHeader{
			ContentType: h.ContentType,
			Collections: []pdk.Collection{{Path: ".", Count: 3}},
		}, []byte(body), nil
	})
	fmt.Printf("%s", out)
	fmt.Println(err)
	// Output:
	// {"abi":1,"content_type":"text/plain","collections":[{"path":".","count":3}]}
	// [×2] a.go
	// b.go
	// <nil>
}

// Reading the members of an object without reflection.
func ExampleReader() {
	r := pdk.NewReader([]byte(`{"number": 7, "title": "Crash on \"save\"", "user": {"login": "ada"}}`))
	r.BeginObject()
	for r.More() {
		key, _ := r.Key()
		switch string(key) {
		case "title":
			s, _ := r.String()
			fmt.Printf("title=%s\n", s)
		case "number":
			n, _ := r.Int()
			fmt.Printf("number=%d\n", n)
		default:
			raw, _ := r.RawValue()
			fmt.Printf("%s=%s\n", key, raw)
		}
	}
	fmt.Println(r.Err())
	// Output:
	// number=7
	// title=Crash on "save"
	// user={"login": "ada"}
	// <nil>
}

func ExampleWriter() {
	w := pdk.NewWriter(nil)
	w.BeginObject()
	w.Key("title")
	w.String("tab\there")
	w.Key("labels")
	w.BeginArray()
	w.String("bug")
	w.Int(2)
	w.EndArray()
	w.EndObject()
	fmt.Println(string(w.Bytes()))
	// Output:
	// {"title":"tab\there","labels":["bug",2]}
}

// A text payload line can stand for several input lines; the host adds
// the markers up.
func ExampleParseGroupMarker() {
	line := pdk.AppendGroupMarker(nil, 400)
	line = append(line, "GET /health 200"...)
	n, rest := pdk.ParseGroupMarker(line)
	fmt.Printf("%s\n%d %q\n", line, n, rest)
	n, rest = pdk.ParseGroupMarker([]byte("ERROR db down"))
	fmt.Printf("%d %q\n", n, rest)
	// Output:
	// [×400] GET /health 200
	// 400 "GET /health 200"
	// 1 "ERROR db down"
}

// Parsing the framed input a plugin receives.
func ExampleParseInput() {
	h, payload, err := pdk.ParseInput([]byte("{\"abi\":1,\"tool\":\"gh\",\"budget_tokens\":500,\"content_type\":\"application/json\",\"config\":{\"keep\":\"number\"}}\n[1,2]"))
	fmt.Println(h.Tool, h.BudgetTokens, h.Config["keep"], string(payload), err)
	// Output:
	// gh 500 number [1,2] <nil>
}
