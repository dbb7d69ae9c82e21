package artifact

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
)

// TestSidecar checks that a sidecar is kept beside its artifact, refused
// for an artifact that is not stored or a name the store does not know,
// and removed by the collector with the artifact.
func TestSidecar(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s, err := NewDir(t.TempDir(), Options{TTL: time.Hour, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, m, err := s.Put(ctx, strings.NewReader(`{"a":1}`), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadSidecar(m.SHA256, "idx"); !errors.Is(err, budget.ErrNotFound) {
		t.Fatalf("no sidecar yet: %v", err)
	}
	if err := s.WriteSidecar(m.SHA256, "idx", []byte("index")); err != nil {
		t.Fatal(err)
	}
	if b, err := s.ReadSidecar(m.SHA256, "idx"); err != nil || string(b) != "index" {
		t.Fatalf("ReadSidecar = %q, %v", b, err)
	}
	if err := s.WriteSidecar(strings.Repeat("0", 64), "idx", []byte("x")); !errors.Is(err, budget.ErrNotFound) {
		t.Errorf("sidecar of an artifact not stored: %v", err)
	}
	for _, bad := range [][2]string{{m.SHA256, "../x"}, {"../../etc", "idx"}, {m.SHA256, "json"}} {
		if err := s.WriteSidecar(bad[0], bad[1], nil); err == nil {
			t.Errorf("WriteSidecar(%q, %q) accepted", bad[0], bad[1])
		}
	}
	now = now.Add(2 * time.Hour)
	if _, err := s.GC(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.sidecarPath(m.SHA256, "idx")); !os.IsNotExist(err) {
		t.Errorf("the collector left the sidecar of a removed artifact: %v", err)
	}
}
