package kernel_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
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

// Example: compile a plugin, make an instance and call an export with an
// Extism input, as the host does for every plugin call.
func Example() {
	ctx := context.Background()
	// A tiny module that imports the Extism kernel and exports an
	// identity function: (module (import "extism:host/env" "input_length"
	// (func (result i64))) (func (export "len") (result i32) call 0
	// i32.wrap_i64)).
	wasm := []byte{
		0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
		0x01, 0x09, 0x02, 0x60, 0x00, 0x01, 0x7e, 0x60, 0x00, 0x01, 0x7f, // types: () -> i64, () -> i32
		0x02, 0x20, 0x01, 0x0f, 'e', 'x', 't', 'i', 's', 'm', ':', 'h', 'o', 's', 't', '/', 'e', 'n', 'v',
		0x0c, 'i', 'n', 'p', 'u', 't', '_', 'l', 'e', 'n', 'g', 't', 'h', 0x00, 0x00, // import
		0x03, 0x02, 0x01, 0x01, // one function of type 1
		0x07, 0x07, 0x01, 0x03, 'l', 'e', 'n', 0x00, 0x01, // export "len"
		0x0a, 0x07, 0x01, 0x05, 0x00, 0x10, 0x00, 0xa7, 0x0b, // body: call 0, i32.wrap_i64, end
	}
	c, err := kernel.Compile(ctx, wasm, kernel.Options{Runtime: wazero.NewRuntimeConfig().WithCloseOnContextDone(true), MaxPages: 16})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close(ctx)
	inst, err := c.Instance(ctx, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	rc, out, err := inst.Call(ctx, "len", []byte("hello, kernel"))
	fmt.Println(rc, len(out), err)
	// Output:
	// 13 0 <nil>
}
