package conformance_test

import (
	"context"
	"fmt"

	"github.com/toolcompact/compact/host/conformance"
)

func ExampleRun() {
	checks := conformance.Run(context.Background(), "testdata/missing.wasm", conformance.Options{
		Inputs: []conformance.Input{{Name: "sample.json", Data: []byte(`[{"id":1}]`)}},
	})
	for _, c := range checks {
		fmt.Println(c)
	}
	fmt.Println(conformance.Failed(checks), "failed")
	// Output:
	// FAIL load: plugin testdata/missing.wasm: load: read testdata/missing.wasm: open testdata/missing.wasm: no such file or directory
	// 1 failed
}
