package kernel_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"

	"github.com/toolcompact/compact/host/internal/kernel"
	"github.com/toolcompact/compact/plugins/plugintest"
)

func compileFaults(t *testing.T) *kernel.Compiled {
	t.Helper()
	data, err := os.ReadFile(plugintest.Build(t, plugintest.Faults))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	rc := wazero.NewRuntimeConfig().WithCloseOnContextDone(true)
	if dir, err := os.UserCacheDir(); err == nil {
		if cache, err := wazero.NewCompilationCacheWithDir(filepath.Join(dir, "compact", "wazero")); err == nil {
			rc = rc.WithCompilationCache(cache)
		}
	}
	c, err := kernel.Compile(ctx, data, kernel.Options{Runtime: rc, MaxPages: 256})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

func framed(fault, payload string) []byte {
	return []byte(`{"abi":1,"tool":"t","budget_tokens":100,"content_type":"text/plain","config":{"fault":"` + fault + `"}}` + "\n" + payload)
}

// TestCallGoGuest runs the fault fixture, a Go plugin built with the
// repository's pdk, through the native kernel: the ABI version, an echo
// (input in, output out), a failure with a message, and a trap that
// the host then throws away (Close).
func TestCallGoGuest(t *testing.T) {
	c := compileFaults(t)
	ctx := context.Background()
	var log bytes.Buffer
	inst, err := c.Instance(ctx, wazero.NewModuleConfig().WithStderr(&log), nil)
	if err != nil {
		t.Fatal(err)
	}
	rc, out, err := inst.Call(ctx, "compact_abi_version", nil)
	if err != nil || rc != 1 || len(out) != 0 {
		t.Fatalf("compact_abi_version = %d, %q, %v", rc, out, err)
	}
	rc, out, err = inst.Call(ctx, "compact_result", framed("echo", "line 1\nline 2\n"))
	if err != nil || rc != 0 || !bytes.HasSuffix(out, []byte("\nline 1\nline 2\n")) || !bytes.HasPrefix(out, []byte(`{"abi":1`)) {
		t.Fatalf("echo = %d, %q, %v", rc, out, err)
	}
	rc, _, err = inst.Call(ctx, "compact_result", framed("fail", "x"))
	if rc != 1 || err == nil || !strings.Contains(err.Error(), "faults: failure requested") {
		t.Fatalf("fail = %d, %v", rc, err)
	}
	if _, _, err := inst.Call(ctx, "no_such_export", nil); err == nil || err.Error() != "unknown function: no_such_export" {
		t.Fatalf("unknown export: %v", err)
	}
	_, _, err = inst.Call(ctx, "compact_result", framed("trap", "x"))
	if err == nil || !strings.Contains(err.Error(), "wasm error: unreachable") || !strings.Contains(log.String(), "faults: trap requested") {
		t.Fatalf("trap = %v (stderr %q)", err, log.String())
	}
	inst.Close(ctx)
	if _, _, err := inst.Call(ctx, "compact_result", framed("echo", "x")); err == nil || err.Error() != "module is closed" {
		t.Fatalf("call after close: %v", err)
	}
}

// TestCallDeadline: a looping guest is stopped at its context's deadline
// (close-on-context-done), with one watcher for the one Go→wasm entry.
func TestCallDeadline(t *testing.T) {
	c := compileFaults(t)
	ctx := context.Background()
	inst, err := c.Instance(ctx, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err = inst.Call(cctx, "compact_result", framed("loop", "x"))
	if err == nil || !errors.Is(cctx.Err(), context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Fatalf("loop: %v after %v", err, time.Since(start))
	}
}

// TestInputTooLarge: an input larger than the kernel memory cap is refused
// before the guest runs.
func TestInputTooLarge(t *testing.T) {
	c := compileFaults(t)
	inst, err := c.Instance(context.Background(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = inst.Call(context.Background(), "compact_result", make([]byte, 256*kernel.PageSize))
	if err == nil || !strings.Contains(err.Error(), "out of memory") {
		t.Fatalf("oversized input: %v", err)
	}
}
