package host

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/registry"
)

// hugeErrorWasm is a hand-assembled plugin whose compact_result allocates a
// 1 MiB kernel block, hands it to error_set and returns 1:
//
//	(module
//	  (import "extism:host/env" "alloc" (func (param i64) (result i64)))
//	  (import "extism:host/env" "error_set" (func (param i64)))
//	  (func (export "compact_abi_version") (result i32) i32.const 1)
//	  (func (export "compact_result") (result i32)
//	    i64.const 1048576 call 0 call 1 i32.const 1))
var hugeErrorWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x0e, 0x03, 0x60, 0x01, 0x7e, 0x01, 0x7e, 0x60, 0x01, 0x7e, 0x00, 0x60, 0x00, 0x01, 0x7f, // types
	0x02, 0x35, 0x02, // imports
	0x0f, 'e', 'x', 't', 'i', 's', 'm', ':', 'h', 'o', 's', 't', '/', 'e', 'n', 'v', 0x05, 'a', 'l', 'l', 'o', 'c', 0x00, 0x00,
	0x0f, 'e', 'x', 't', 'i', 's', 'm', ':', 'h', 'o', 's', 't', '/', 'e', 'n', 'v', 0x09, 'e', 'r', 'r', 'o', 'r', '_', 's', 'e', 't', 0x00, 0x01,
	0x03, 0x03, 0x02, 0x02, 0x02, // functions
	0x07, 0x28, 0x02, // exports
	0x13, 'c', 'o', 'm', 'p', 'a', 'c', 't', '_', 'a', 'b', 'i', '_', 'v', 'e', 'r', 's', 'i', 'o', 'n', 0x00, 0x02,
	0x0e, 'c', 'o', 'm', 'p', 'a', 'c', 't', '_', 'r', 'e', 's', 'u', 'l', 't', 0x00, 0x03,
	0x0a, 0x14, 0x02, // code
	0x04, 0x00, 0x41, 0x01, 0x0b,
	0x0d, 0x00, 0x42, 0x80, 0x80, 0xc0, 0x00, 0x10, 0x00, 0x10, 0x01, 0x41, 0x01, 0x0b,
}

// TestPluginErrorMessageCapped: the message a plugin sets with error_set
// can be as large as its memory cap; it ends up in the result's actions
// and the host's log, so the host keeps only its head and says how many
// bytes it left out (on both runtimes).
func TestPluginErrorMessageCapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hugeerror.wasm")
	if err := os.WriteFile(path, hugeErrorWasm, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rt := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		t.Run(string(rt), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.runtime = rt
			ctx := context.Background()
			ps, err := newPluginSet(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer ps.close(ctx)
			p, err := ps.load(ctx, &registry.Plugin{Path: path, Memory: 4 << 20})
			if err != nil {
				t.Fatal(err)
			}
			_, err = p.call(ctx, []byte("x"), time.Second)
			var pe *PluginError
			if !errors.As(err, &pe) {
				t.Fatalf("call: %v, want a *PluginError", err)
			}
			msg := err.Error()
			if len(msg) > 2*maxPluginMessage || !strings.Contains(msg, "more bytes") {
				t.Fatalf("error of %d bytes, want at most %d with the count of bytes left out (%.200q)", len(msg), 2*maxPluginMessage, msg)
			}
			if left := 1<<20 - maxPluginMessage; !strings.Contains(msg, fmt.Sprintf("(%d more bytes)", left)) {
				t.Errorf("error does not count what it left out: %.300q", msg)
			}
		})
	}
}

// startLoopWasm is a hand-assembled plugin whose WebAssembly start
// function (the module's start section, which runs while the module is
// instantiated, whatever the host's start-function settings) loops
// forever:
//
//	(module
//	  (func $loop (loop br 0))
//	  (func (export "compact_abi_version") (result i32) i32.const 1)
//	  (func (export "compact_result") (result i32) i32.const 0)
//	  (start $loop))
var startLoopWasm = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	0x01, 0x08, 0x02, 0x60, 0x00, 0x00, 0x60, 0x00, 0x01, 0x7f, // types
	0x03, 0x04, 0x03, 0x00, 0x01, 0x01, // functions
	0x07, 0x28, 0x02, // exports
	0x13, 'c', 'o', 'm', 'p', 'a', 'c', 't', '_', 'a', 'b', 'i', '_', 'v', 'e', 'r', 's', 'i', 'o', 'n', 0x00, 0x01,
	0x0e, 'c', 'o', 'm', 'p', 'a', 'c', 't', '_', 'r', 'e', 's', 'u', 'l', 't', 0x00, 0x02,
	0x08, 0x01, 0x00, // start
	0x0a, 0x13, 0x03, // code
	0x07, 0x00, 0x03, 0x40, 0x0c, 0x00, 0x0b, 0x0b,
	0x04, 0x00, 0x41, 0x01, 0x0b,
	0x04, 0x00, 0x41, 0x00, 0x0b,
}

// TestPluginStartSectionLoopStopped: instantiating a plugin runs its start
// section, guest code like any other, so it runs under a deadline too: a
// plugin whose start function loops is refused at load (with a caller
// context that has no deadline) instead of hanging the host, on both
// runtimes.
func TestPluginStartSectionLoopStopped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "startloop.wasm")
	if err := os.WriteFile(path, startLoopWasm, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, rt := range []Runtime{RuntimeNative, RuntimeExtismSDK} {
		t.Run(string(rt), func(t *testing.T) {
			cfg := testConfig(t)
			cfg.runtime = rt
			ctx := context.Background()
			ps, err := newPluginSet(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer ps.close(ctx)
			done := make(chan error, 1)
			go func() {
				_, err := ps.load(ctx, &registry.Plugin{Path: path, Memory: 4 << 20})
				done <- err
			}()
			select {
			case err := <-done:
				var pe *PluginError
				if !errors.As(err, &pe) || pe.Kind != KindLoad {
					t.Fatalf("load: %v, want a load error", err)
				}
			case <-time.After(loadTimeout + 10*time.Second):
				t.Fatalf("load of a plugin whose start function loops did not return within %v", loadTimeout+10*time.Second)
			}
		})
	}
}
