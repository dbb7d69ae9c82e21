package artifact_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

func ExampleParseRef() {
	r, err := artifact.ParseRef("a1b2c3d4e5f6.items[3].name")
	fmt.Println(r.Handle, r.Path, r.Steps(), err)
	r, _ = artifact.ParseRef(`A1B2C3D4E5F6["a key"].x`)
	fmt.Println(r)
	_, err = artifact.ParseRef("../etc/passwd")
	fmt.Println(err)
	// Output:
	// a1b2c3d4e5f6 .items[3].name [items 3 name] <nil>
	// a1b2c3d4e5f6["a key"].x
	// malformed artifact reference: "../etc/passwd": byte 0 ('.') is not a hex digit; a handle is 12 to 64 hex digits, optionally followed by a path starting with "." or "["
}

func ExampleDirStore() {
	dir, _ := os.MkdirTemp("", "artifacts")
	defer os.RemoveAll(dir)
	s, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	h, m, err := s.Put(ctx, strings.NewReader(`{"items":[1,2,3]}`), budget.Meta{Tool: "demo"})
	if err != nil {
		panic(err)
	}
	fmt.Println(h, m.Bytes, m.ContentType)
	rc, _, err := s.Open(ctx, h)
	if err != nil {
		panic(err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	fmt.Println(string(b))
	_, _, err = s.Open(ctx, "0123456789ab")
	fmt.Println(err != nil && strings.Contains(err.Error(), "artifact not found"))
	// Output:
	// 7aff5dcbe562 17 application/json
	// {"items":[1,2,3]}
	// true
}
