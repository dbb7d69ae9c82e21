package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// TestSpoolCommit: Spool writes and hashes once; Commit stores the file
// as the artifact (the same digest and bytes as Put), twice gives the
// same answer; a spool over its limit and a discarded spool leave nothing
// behind; a commit over the quota stores nothing.
func TestSpoolCommit(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := NewDir(dir, Options{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	data := strings.Repeat(`{"a":1}`+"\n", 1000)
	sum := sha256.Sum256([]byte(data))
	sp, err := s.Spool(ctx, strings.NewReader(data), -1)
	if err != nil {
		t.Fatal(err)
	}
	if sp.Size() != int64(len(data)) || sp.SHA256() != hex.EncodeToString(sum[:]) {
		t.Fatalf("spooled %d bytes, sum %s", sp.Size(), sp.SHA256())
	}
	h, m, err := sp.Commit(ctx, budget.Meta{Tool: "t"})
	if err != nil || m.SHA256 != sp.SHA256() || m.ContentType != "application/x-ndjson" {
		t.Fatalf("commit: %v %+v", err, m)
	}
	if h2, _, err := sp.Commit(ctx, budget.Meta{}); err != nil || h2 != h {
		t.Fatalf("second commit: %v %s", err, h2)
	}
	sp.Discard() // committed: kept
	rc, _, err := s.Open(ctx, h)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || string(got) != data {
		t.Fatalf("open: %v, %d bytes", err, len(got))
	}
	if _, err := s.Spool(ctx, strings.NewReader(data), 100); !errors.Is(err, ErrSpoolTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	d, err := s.Spool(ctx, strings.NewReader("other"), -1)
	if err != nil {
		t.Fatal(err)
	}
	d.Discard()
	big, err := s.Spool(ctx, strings.NewReader(strings.Repeat("x", 2<<20)), -1)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := big.Commit(ctx, budget.Meta{}); !errors.Is(err, ErrOverQuota) {
		t.Fatalf("commit over the quota: %v", err)
	}
	big.Discard()
	if ents, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(ents) > 0 {
		t.Errorf("left in tmp: %d files", len(ents))
	}
}

// TestPutHashed: PutHashed stores like Put without hashing again (Put of
// the same bytes finds them); a wrong digest stores an object every read
// refuses (reads check the digest, never trust it).
func TestPutHashed(t *testing.T) {
	ctx := context.Background()
	s, err := NewDir(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(strings.Repeat("line\n", 500))
	sum := sha256.Sum256(data)
	h, m, err := s.PutHashed(ctx, data, hex.EncodeToString(sum[:]), budget.Meta{Tool: "t"})
	if err != nil || m.SHA256 != hex.EncodeToString(sum[:]) || m.Bytes != int64(len(data)) {
		t.Fatalf("PutHashed: %v %+v", err, m)
	}
	if h2, _, err := s.Put(ctx, strings.NewReader(string(data)), budget.Meta{}); err != nil || h2 != h {
		t.Fatalf("Put of the same bytes: %v, %s want %s", err, h2, h)
	}
	wrong := strings.Repeat("ab", 32)
	hw, _, err := s.PutHashed(ctx, []byte("not these"), wrong, budget.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Open(ctx, hw); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("open of a wrongly hashed object: %v, want ErrCorrupt", err)
	}
}
