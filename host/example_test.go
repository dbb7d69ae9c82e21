package host_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"

	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

func ExampleEngine_Compact() {
	ctx := context.Background()
	eng, err := host.New(ctx, host.WithBudget(120), host.WithLazyPlugins())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)

	var out strings.Builder
	out.WriteString("[")
	for i := range 5 {
		if i > 0 {
			out.WriteString(",")
		}
		fmt.Fprintf(&out, `{"id":%d,"name":"svc-%d","html_url":"https://example.com/svc/%d","owner":null}`, i, i, i)
	}
	out.WriteString("]")

	res, err := eng.Compact(ctx, host.Request{Tool: "services.list", Input: []byte(out.String())})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Level, res.Collections[0].Count, "records,", res.Collections[0].Shown, "shown")
	fmt.Println(res.Tokens.After <= res.Tokens.Budget)
	fmt.Println(res.Content)
	for _, a := range res.Actions {
		fmt.Println(a.Kind, a.Target)
	}
	// Output:
	// fields 5 records, 5 shown
	// true
	// [compact: 5 of 5 records shown; every record has owner=null (left out); full original not stored: no artifact store is configured]
	// id	name	html_url
	// 0	svc-0	https://example.com/svc/0
	// 1	svc-1	https://example.com/svc/1
	// 2	svc-2	https://example.com/svc/2
	// 3	svc-3	https://example.com/svc/3
	// 4	svc-4	https://example.com/svc/4
	// drop_constant .[].owner
	// table .
}

// A plugin can be loaded on its own, for example to try it on a sample.
func ExampleLoadPlugin() {
	ctx := context.Background()
	_, err := host.LoadPlugin(ctx, "testdata/no-such-plugin.wasm", host.PluginOptions{})
	var pe *host.PluginError
	if errors.As(err, &pe) {
		fmt.Println(pe.Kind)
	}
	fmt.Println(schemas.ABIVersion)
	// Output:
	// load
	// 1
}

// An engine can run plugins on extism/go-sdk, the reference Extism host,
// instead of compact's native implementation of the Extism host ABI (the
// default); results are the same.
func ExampleWithRuntime() {
	ctx := context.Background()
	eng, err := host.New(ctx, host.WithRuntime(host.RuntimeExtismSDK), host.WithLazyPlugins())
	if err != nil {
		log.Fatal(err)
	}
	defer eng.Close(ctx)
	_, err = host.New(ctx, host.WithRuntime("wasmtime"))
	fmt.Println(err)
	// Output:
	// host: WithRuntime: unknown runtime "wasmtime" (want "native" or "extism-sdk")
}
