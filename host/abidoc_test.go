package host

import (
	"bytes"
	"context"
	"os"
	"testing"
)

// TestABIDocExample keeps the complete plugin in schemas/ABI.md honest: the
// file testdata/guests/abiecho/main.go must appear there verbatim, and it
// must build, load and pass the host's checks.
func TestABIDocExample(t *testing.T) {
	src, err := os.ReadFile("testdata/guests/abiecho/main.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../schemas/ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(doc, src) {
		t.Fatal("schemas/ABI.md no longer holds testdata/guests/abiecho/main.go verbatim; update one from the other")
	}
	_, p := loadPlugin(t, testConfig(t), "./testdata/guests/abiecho", 0)
	out, err := (&compactor{p: p}).Compact(context.Background(), sampleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Content, sample) || out.ContentType != "application/json" {
		t.Errorf("abiecho: %q %q", out.Content, out.ContentType)
	}
}
