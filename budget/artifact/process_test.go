package artifact

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/toolcompact/compact/budget"
)

const childDirEnv = "COMPACT_ARTIFACT_TEST_CHILD_DIR"

// TestChildWriter is the body of the child processes of
// TestTwoProcessesWriteOneArtifact; on its own it does nothing.
func TestChildWriter(t *testing.T) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		return
	}
	s, err := NewDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	shared := logLike(4<<20, 1)
	for i := range 8 {
		h, _, err := s.Put(context.Background(), bytes.NewReader(shared), budget.Meta{Tool: "shared"})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("shared %s\n", h)
		own := fmt.Sprintf("pid %d item %d\n", os.Getpid(), i)
		h, _, err = s.Put(context.Background(), strings.NewReader(own), budget.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("own %s %s", h, own)
	}
}

// Two processes store the same 4 MB artifact eight times each, at once,
// plus artifacts of their own: every handle opens to the right bytes, the
// shared one has a single handle, and nothing is left half-written.
func TestTwoProcessesWriteOneArtifact(t *testing.T) {
	if os.Getenv(childDirEnv) != "" {
		return
	}
	dir := t.TempDir()
	outs := make([]bytes.Buffer, 2)
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^TestChildWriter$", "-test.v")
			cmd.Env = append(os.Environ(), childDirEnv+"="+dir)
			cmd.Stdout = &outs[i]
			cmd.Stderr = &outs[i]
			errs[i] = cmd.Run()
		}()
	}
	wg.Wait()
	s, err := NewDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	shared := string(logLike(4<<20, 1))
	sharedHandles := map[string]bool{}
	owns := 0
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("child %d: %v\n%s", i, errs[i], outs[i].String())
		}
		for _, line := range strings.Split(outs[i].String(), "\n") {
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && f[0] == "shared":
				sharedHandles[f[1]] = true
			case len(f) >= 2 && f[0] == "own":
				got, err := read(t, s, budget.Handle(f[1]))
				if want := strings.Join(f[2:], " ") + "\n"; err != nil || got != want {
					t.Fatalf("own artifact %s = %q, %v; want %q", f[1], got, err, want)
				}
				owns++
			}
		}
	}
	if len(sharedHandles) != 1 || owns != 16 {
		t.Fatalf("shared handles %v, own artifacts %d", sharedHandles, owns)
	}
	for h := range sharedHandles {
		if got, err := read(t, s, budget.Handle(h)); err != nil || got != shared {
			t.Fatalf("shared artifact: %d bytes, %v", len(got), err)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(ents) != 0 {
		t.Fatalf("temporary files left: %d", len(ents))
	}
}
