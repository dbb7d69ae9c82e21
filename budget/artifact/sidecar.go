package artifact

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/toolcompact/compact/budget"
)

// Sidecars are small files derived from an artifact's bytes (the query
// index of budget/query), kept beside its object so that a later process
// need not derive them again. They are caches: a reader checks that one
// belongs to the digest it expects, and a missing or damaged one is
// rebuilt. The collector removes them with their object.

// sidecarName is the only sidecar kind the store keeps.
const sidecarName = "idx"

func (s *DirStore) sidecarPath(sum, name string) string { return s.objectPath(sum) + "." + name }

func checkSidecar(sum, name string) error {
	if name != sidecarName {
		return fmt.Errorf("artifact store: unknown sidecar %q", name)
	}
	if len(sum) != 64 {
		return fmt.Errorf("artifact store: sidecar of %q: not a digest", sum)
	}
	for _, c := range sum {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return fmt.Errorf("artifact store: sidecar of %q: not a digest", sum)
		}
	}
	return nil
}

// ReadSidecar returns the sidecar name ("idx") of the artifact whose
// SHA-256 is sum; budget.ErrNotFound when there is none.
func (s *DirStore) ReadSidecar(sum, name string) ([]byte, error) {
	if err := checkSidecar(sum, name); err != nil {
		return nil, err
	}
	f, err := openRegular(s.sidecarPath(sum, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("sidecar %s of %s: %w", name, sum, budget.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxIndexSidecar+1))
	if err == nil && len(b) > maxIndexSidecar {
		return nil, fmt.Errorf("sidecar %s of %s: more than %d bytes", name, sum, maxIndexSidecar)
	}
	return b, err
}

// maxIndexSidecar bounds what ReadSidecar reads: an index takes a few
// bytes per record, so 1 GiB covers any artifact a query loads.
const maxIndexSidecar = 1 << 30

// WriteSidecar stores data as the sidecar name of the artifact sum,
// atomically (a reader sees the old file or the new one), while the
// artifact is stored; it fails when the artifact is not.
func (s *DirStore) WriteSidecar(sum, name string, data []byte) error {
	if err := checkSidecar(sum, name); err != nil {
		return err
	}
	release := s.lease(sum) // the collector leaves it alone meanwhile
	defer release()
	if fi, err := os.Lstat(s.objectPath(sum)); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("sidecar %s of %s: %w", name, sum, budget.ErrNotFound)
	}
	tmp, err := s.writeTemp(data, false)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, s.sidecarPath(sum, name)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("artifact store %s: %w", s.dir, err)
	}
	return nil
}
