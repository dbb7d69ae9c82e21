package host

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/plugins/plugintest"
	"github.com/toolcompact/compact/registry"
)

// testConfig is an engine configuration for tests that drive plugins
// directly. Compiled code is cached in the user cache directory, like the
// engine's default, so repeated runs do not recompile.
func testConfig(t testing.TB) *config {
	return &config{
		logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
		coolFails: 3,
		coolFor:   time.Minute,
		logLimit:  4 << 10,
		cacheDir:  defaultCacheDir(),
	}
}

// loadPlugin builds (cached) and loads a plugin package with the given
// memory cap in bytes (0 for the default).
func loadPlugin(t testing.TB, cfg *config, pkg string, memory int64, ldflags ...string) (*pluginSet, *plugin) {
	t.Helper()
	path := plugintest.Build(t, pkg, ldflags...)
	ctx := context.Background()
	ps, err := newPluginSet(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ps.close(ctx) })
	p, err := ps.load(ctx, &registry.Plugin{Path: path, Memory: memory})
	if err != nil {
		t.Fatalf("load %s: %v", pkg, err)
	}
	return ps, p
}

func faultCompactor(p *plugin, fault string, timeout time.Duration) *compactor {
	return &compactor{p: p, config: map[string]string{"fault": fault}, timeout: timeout}
}

var sample = []byte(`[{"id":1,"name":"a"},{"id":2,"name":"b"},{"id":3,"name":"c"}]`)

func sampleRequest() budget.Request {
	return budget.Request{Tool: "t", Input: sample, ContentType: "application/json", Budget: 100}
}

func TestPluginEcho(t *testing.T) {
	_, p := loadPlugin(t, testConfig(t), plugintest.Faults, 0)
	out, err := faultCompactor(p, "echo", 0).Compact(context.Background(), sampleRequest())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out.Content, sample) || out.ContentType != "application/json" || len(out.Declared) != 0 {
		t.Errorf("echo output = %q %q %v", out.Content, out.ContentType, out.Declared)
	}
}

// TestPluginFaults runs each misbehaviour of the fault fixture and checks
// the kind of the error, the deadline, and that the host keeps serving:
// the faulty instance is thrown away and the next call succeeds.
func TestPluginFaults(t *testing.T) {
	cfg := testConfig(t)
	_, p := loadPlugin(t, cfg, plugintest.Faults, 16<<20) // 16 MiB: room to load, not to hog
	const timeout = 100 * time.Millisecond                // for the loop
	cases := []struct {
		fault string
		kind  Kind
		msg   string
	}{
		{"trap", KindTrap, "wasm error: unreachable"},
		{"loop", KindTimeout, "no answer within 100ms"},
		{"oom", KindMemory, "memory cap of 256 pages"},
		{"framing", KindFraming, "no newline after the header line"},
		{"badheader", KindFraming, "not a JSON object"},
		{"bloat", KindSize, "larger than the 61-byte input"},
		{"fail", KindFailed, "faults: failure requested"},
	}
	for _, c := range cases {
		t.Run(c.fault, func(t *testing.T) {
			made := p.made.Load()
			start := time.Now()
			d := 10 * time.Second
			if c.fault == "loop" {
				d = timeout
			}
			_, err := faultCompactor(p, c.fault, d).Compact(context.Background(), sampleRequest())
			took := time.Since(start)
			var pe *PluginError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *PluginError", err)
			}
			if pe.Kind != c.kind || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("err = %v (kind %s), want kind %s containing %q", err, pe.Kind, c.kind, c.msg)
			}
			if c.fault == "trap" && !strings.Contains(pe.Log, "panic: faults: trap requested") {
				t.Errorf("the guest's stderr was not captured: log %q", pe.Log)
			}
			if pe.Plugin != p.name {
				t.Errorf("plugin = %q, want %q", pe.Plugin, p.name)
			}
			// A fault during the call throws the instance away; framing
			// and size faults come from a healthy instance, kept.
			callFault := c.kind == KindTrap || c.kind == KindTimeout || c.kind == KindMemory || c.kind == KindFailed
			if callFault && p.live.Load() != 0 {
				t.Errorf("after a %s fault %d instances are live, want 0 (thrown away)", c.kind, p.live.Load())
			}
			// Answered within the deadline plus a margin for a noisy
			// machine (loading a new instance is not part of it: the
			// instance was warm).
			if c.kind == KindTimeout && took > timeout+time.Second {
				t.Errorf("loop answered after %v, deadline %v", took, timeout)
			}
			out, err := faultCompactor(p, "echo", timeout*10).Compact(context.Background(), sampleRequest())
			if err != nil || !bytes.Equal(out.Content, sample) {
				t.Fatalf("echo after %s: %v", c.fault, err)
			}
			if callFault && p.made.Load() != made+1 {
				t.Errorf("instances made: %d, want %d (one replacement)", p.made.Load(), made+1)
			}
		})
	}
}

func TestPluginDropDeclaresFullCount(t *testing.T) {
	_, p := loadPlugin(t, testConfig(t), plugintest.Faults, 0)
	for _, in := range [][]byte{sample, []byte("one\ntwo\nthree\n")} {
		req := sampleRequest()
		req.Input = in
		if in[0] != '[' {
			req.ContentType = "text/plain"
		}
		_, err := faultCompactor(p, "drop", 0).Compact(context.Background(), req)
		var pe *PluginError
		if !errors.As(err, &pe) || pe.Kind != KindCount || !errors.Is(err, budget.ErrCountMismatch) {
			t.Errorf("drop on %q: err = %v, want KindCount", in, err)
		}
	}
}

func TestPluginABIVersionRefusedAtLoad(t *testing.T) {
	path := plugintest.Build(t, plugintest.Faults, plugintest.FaultsABI2)
	ctx := context.Background()
	ps, err := newPluginSet(ctx, testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	defer ps.close(ctx)
	_, err = ps.load(ctx, &registry.Plugin{Path: path})
	var pe *PluginError
	if !errors.As(err, &pe) || pe.Kind != KindABI {
		t.Fatalf("err = %v, want KindABI", err)
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "ABI version 2; this host speaks version 1") {
		t.Errorf("error does not name the file and the reason: %v", err)
	}
}

func TestPluginLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// The smallest valid module: magic and version, nothing else.
	empty := write("empty.wasm", []byte("\x00asm\x01\x00\x00\x00"))
	junk := write("junk.wasm", []byte("#!/bin/sh\necho not wasm\n"))
	cases := []struct {
		path string
		kind Kind
		want string
	}{
		{filepath.Join(dir, "absent.wasm"), KindLoad, "absent.wasm: no such file"},
		{junk, KindLoad, "junk.wasm is not a valid WebAssembly module"},
		{empty, KindABI, `does not export "compact_result"`},
		{"builtin:Bad/Name", KindLoad, "builtin plugin name"},
	}
	ctx := context.Background()
	ps, err := newPluginSet(ctx, testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	defer ps.close(ctx)
	for _, c := range cases {
		_, err := ps.load(ctx, &registry.Plugin{Path: c.path})
		var pe *PluginError
		if !errors.As(err, &pe) || pe.Kind != c.kind || !strings.Contains(err.Error(), c.want) {
			t.Errorf("load %s: %v, want kind %s containing %q", c.path, err, c.kind, c.want)
		}
	}
}

func TestPluginPoolBound(t *testing.T) {
	cfg := testConfig(t)
	cfg.poolSize = 2
	_, p := loadPlugin(t, cfg, plugintest.Faults, 0)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := faultCompactor(p, "spin:1", 10*time.Second).Compact(context.Background(), sampleRequest())
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if made := p.made.Load(); made > 2 {
		t.Errorf("%d instances made with a pool bound of 2", made)
	}
	if live := p.live.Load(); live > 2 || live < 1 {
		t.Errorf("%d instances live, want 1 or 2", live)
	}
}

func TestPluginWaitBoundedByCaller(t *testing.T) {
	cfg := testConfig(t)
	cfg.poolSize = 1
	_, p := loadPlugin(t, cfg, plugintest.Faults, 0)
	inst, err := p.acquire(context.Background()) // hold the only slot
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = faultCompactor(p, "echo", 0).Compact(ctx, sampleRequest())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the caller's deadline", err)
	}
	var pe *PluginError
	if errors.As(err, &pe) {
		t.Errorf("waiting for a busy pool is not a plugin fault: %v", err)
	}
	p.release(inst, true)
}

func TestCoolDown(t *testing.T) {
	cfg := testConfig(t)
	p := &plugin{name: "p", cfg: cfg}
	now := time.Now()
	fault := &PluginError{Plugin: "p", Kind: KindTrap, Err: errors.New("boom")}
	p.failed(now, fault)
	p.failed(now, fault)
	p.succeeded() // a success resets the run
	p.failed(now, fault)
	p.failed(now, fault)
	if !p.available(now) {
		t.Fatal("on cool-down after 2 faults in a row")
	}
	p.failed(now, fault)
	if p.available(now) || p.available(now.Add(cfg.coolFor-time.Second)) {
		t.Fatal("not on cool-down after 3 faults in a row")
	}
	if !p.available(now.Add(cfg.coolFor)) {
		t.Fatal("still on cool-down after it ended")
	}
	if msg := p.coolDownErr().Error(); !strings.Contains(msg, "3 faults in a row") || !strings.Contains(msg, "trap: boom") {
		t.Errorf("cool-down message %q", msg)
	}
}

func TestPluginLogCaptured(t *testing.T) {
	b := &limitedBuffer{limit: 10}
	io.WriteString(b, "0123456789abcdef")
	if got := b.String(); got != "0123456789… [6 more bytes of plugin log dropped]" {
		t.Errorf("limited buffer = %q", got)
	}
	b.Reset()
	if b.Len() != 0 {
		t.Error("reset")
	}
}
