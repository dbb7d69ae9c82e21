package plugintest

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

func TestFaultsABIVersion(t *testing.T) {
	if got := newInstance(t, Build(t, Faults)).abiVersion(); got != 1 {
		t.Errorf("faults abi version = %d, want 1", got)
	}
	if got := newInstance(t, Build(t, Faults, FaultsABI2)).abiVersion(); got != 2 {
		t.Errorf("faults built with %q: abi version = %d, want 2", FaultsABI2, got)
	}
}

func TestFaultsBehaviour(t *testing.T) {
	wasm := Build(t, Faults)
	array := []byte(`[{"id":1},{"id":2},{"id":3}]`)
	lines := []byte("one\ntwo\nthree\n")

	t.Run("echo", func(t *testing.T) {
		h, body := newInstance(t, wasm).mustCall("application/json", map[string]string{"fault": "echo"}, array)
		if !bytes.Equal(body, array) || h.ContentType != "application/json" || len(h.Collections) != 0 {
			t.Errorf("echo: header %+v body %q", h, body)
		}
	})
	t.Run("drop-json", func(t *testing.T) {
		h, body := newInstance(t, wasm).mustCall("application/json", map[string]string{"fault": "drop"}, array)
		if string(body) != `[{"id":1},{"id":2}]` || len(h.Collections) != 1 || h.Collections[0].Count != 3 {
			t.Errorf("drop: header %+v body %q", h, body)
		}
	})
	t.Run("drop-text", func(t *testing.T) {
		h, body := newInstance(t, wasm).mustCall("text/plain", map[string]string{"fault": "drop"}, lines)
		if string(body) != "one\ntwo\n" || h.Collections[0].Count != 3 {
			t.Errorf("drop: header %+v body %q", h, body)
		}
	})
	t.Run("bloat", func(t *testing.T) {
		_, body := newInstance(t, wasm).mustCall("text/plain", map[string]string{"fault": "bloat"}, lines)
		if len(body) != 10*len(lines) {
			t.Errorf("bloat: %d bytes, want %d", len(body), 10*len(lines))
		}
	})
	t.Run("framing", func(t *testing.T) {
		exit, out, err := newInstance(t, wasm).call(callTimeout, "text/plain", map[string]string{"fault": "framing"}, lines)
		if err != nil || exit != 0 {
			t.Fatalf("exit %d err %v", exit, err)
		}
		if _, _, err := parseOutput(out); err == nil {
			t.Errorf("framing fault produced a valid frame: %q", out)
		}
	})
	t.Run("badheader", func(t *testing.T) {
		_, out, _ := newInstance(t, wasm).call(callTimeout, "text/plain", map[string]string{"fault": "badheader"}, lines)
		if _, _, err := parseOutput(out); err == nil {
			t.Errorf("badheader fault produced a valid frame: %q", out)
		}
	})
	t.Run("fail", func(t *testing.T) {
		exit, _, err := newInstance(t, wasm).call(callTimeout, "text/plain", map[string]string{"fault": "fail"}, lines)
		if exit == 0 || err == nil || !strings.Contains(err.Error(), "failure requested") {
			t.Errorf("fail: exit %d err %v", exit, err)
		}
	})
	t.Run("trap", func(t *testing.T) {
		exit, _, err := newInstance(t, wasm).call(callTimeout, "text/plain", map[string]string{"fault": "trap"}, lines)
		if err == nil {
			t.Errorf("trap: exit %d, no error", exit)
		}
	})
	t.Run("oom", func(t *testing.T) {
		exit, _, err := newInstance(t, wasm).call(30*time.Second, "text/plain", map[string]string{"fault": "oom"}, lines)
		if err == nil {
			t.Errorf("oom: exit %d, no error", exit)
		}
	})
	t.Run("loop", func(t *testing.T) {
		start := time.Now()
		_, _, err := newInstance(t, wasm).call(200*time.Millisecond, "text/plain", map[string]string{"fault": "loop"}, lines)
		if err == nil {
			t.Error("loop: no error")
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("loop: call returned after %v, deadline was 200ms", d)
		}
	})
	t.Run("slow", func(t *testing.T) {
		start := time.Now()
		_, body := newInstance(t, wasm).mustCall("text/plain", map[string]string{"fault": "slow:100"}, lines)
		if d := time.Since(start); d < 100*time.Millisecond {
			t.Errorf("slow:100 returned after %v", d)
		}
		if !bytes.Equal(body, lines) {
			t.Errorf("slow: body %q", body)
		}
	})
}

func TestBuildCaches(t *testing.T) {
	first := Build(t, Faults)
	st1, err := os.Stat(first)
	if err != nil {
		t.Fatal(err)
	}
	// A second build outside the per-process memo hits the disk cache.
	again, err := cachedBuild(Faults, nil)
	if err != nil {
		t.Fatal(err)
	}
	st2, _ := os.Stat(again)
	if again != first || !st1.ModTime().Equal(st2.ModTime()) {
		t.Errorf("rebuilt: %s (%v) vs %s (%v)", first, st1.ModTime(), again, st2.ModTime())
	}
	if abi2 := Build(t, Faults, FaultsABI2); abi2 == first {
		t.Error("ldflags do not change the cache key")
	}
}
