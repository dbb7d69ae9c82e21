//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// TestMappedInputTruncated checks what runRun relies on when a mapped
// input file is truncated by another process while it is read: the fault
// becomes a recoverable panic that isFault recognises (without
// SetPanicOnFault it would kill the process with SIGBUS).
func TestMappedInputTruncated(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 1<<20)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	data, release, err := mapFile(f, 1<<20)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	var caught any
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { caught = recover() }()
		faultSink += data[len(data)-1]
	}()
	err, ok := caught.(error)
	if !ok || !isFault(err) {
		t.Fatalf("reading a truncated mapping: recovered %v, want a memory fault", caught)
	}
}

// faultSink keeps the read of TestMappedInputTruncated from being
// optimised away.
var faultSink byte
