package host

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestSandbox runs a guest that tries to escape: a file the host process
// can read, the host's environment, and an HTTP request. None may work.
func TestSandbox(t *testing.T) {
	if _, err := os.ReadFile("/etc/hostname"); err != nil {
		t.Skip("the host itself cannot read /etc/hostname")
	}
	_, p := loadPlugin(t, testConfig(t), "./testdata/guests/sandbox", 0)
	call := func(cfg map[string]string) *PluginError {
		t.Helper()
		_, err := (&compactor{p: p, config: cfg, timeout: 5 * time.Second}).Compact(context.Background(), sampleRequest())
		var pe *PluginError
		if !errors.As(err, &pe) {
			t.Fatalf("probe %v: err = %v, want a *PluginError", cfg, err)
		}
		return pe
	}
	if pe := call(map[string]string{"probe": "fs", "path": "/etc/hostname"}); pe.Kind != KindFailed || !strings.Contains(pe.Err.Error(), "fs probe: read failed") {
		t.Errorf("fs probe: %v", pe)
	}
	if pe := call(map[string]string{"probe": "env"}); !strings.Contains(pe.Err.Error(), "env probe: 0 variables") {
		t.Errorf("env probe: %v", pe)
	}
	if pe := call(map[string]string{"probe": "net"}); pe.Kind != KindTrap || !strings.Contains(pe.Err.Error(), "is not allowed") {
		t.Errorf("net probe: %v", pe)
	}
}
