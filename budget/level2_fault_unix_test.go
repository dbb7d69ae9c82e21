//go:build unix

package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolcompact/compact/schemas"
)

// truncatingStore truncates a file, then reads the artifact: as when
// another process truncates a mapped input while level 2 stores it.
type truncatingStore struct {
	memStore
	path string
	done chan struct{}
}

func (s *truncatingStore) Put(ctx context.Context, r io.Reader, m Meta) (Handle, Meta, error) {
	defer close(s.done)
	if err := os.Truncate(s.path, 0); err != nil {
		return "", m, err
	}
	return s.memStore.Put(ctx, r, m)
}

// TestLevel2StoreOfTruncatedMappingFails: the original is stored on a
// goroutine of its own; when the input is a mapped file (compact run
// FILE) that is truncated meanwhile, reading it there faults. The fault
// must become level 2's error, as it does on the caller's goroutine with
// debug.SetPanicOnFault; on the old code it killed the process (SIGBUS,
// "unexpected fault address"), whatever the caller had set.
func TestLevel2StoreOfTruncatedMappingFails(t *testing.T) {
	p := filepath.Join(t.TempDir(), "in.json")
	var b strings.Builder
	b.WriteString("[")
	for i := range 4000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","status":"ok"}`, i, i)
	}
	b.WriteString("]")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, b.Len(), syscall.PROT_READ, syscall.MAP_SHARED)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(data)
	shape, err := DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &truncatingStore{path: p, done: make(chan struct{})}
	pl := NewPipeline(counter(t), WithStore(st))
	best := Level1Result{Result: schemas.Result{Content: "x", Tokens: schemas.Tokens{Budget: 300}}}
	var caught any
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { caught = recover() }()
		_, err = pl.level2(context.Background(), Input{Tool: "t", Data: data, Budget: 300}, shape, best)
	}()
	select {
	case <-st.done:
	case <-time.After(10 * time.Second):
		t.Fatal("the store's Put did not finish")
	}
	if caught != nil {
		// The caller's goroutine faulted first: its own recover holds.
		return
	}
	var fault interface{ Addr() uintptr }
	if err == nil || !errors.As(err, &fault) {
		t.Fatalf("level 2 over a truncated mapping: %v, want the fault as an error", err)
	}
}
