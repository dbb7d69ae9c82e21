//go:build unix

package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"syscall"
	"time"

	"github.com/toolcompact/compact/budget"
)

// Map returns the stored bytes of h mapped read-only into memory, after
// verifying them against their digest (one pass over the mapping), and
// their metadata; it fails as Open does. Until release is called the
// collector leaves the artifact alone and the bytes stay valid; after it
// they must not be touched. A query process reads a large artifact this
// way without copying it into its heap: the pages are the file system's
// cache, shared and never written, and nothing is read twice (Open
// verifies in one pass and serves in another).
func (s *DirStore) Map(ctx context.Context, h budget.Handle) (data []byte, m budget.Meta, release func(), err error) {
	sum, known, err := s.resolve(h)
	if err != nil {
		return nil, m, nil, err
	}
	unlease := s.lease(sum)
	f, err := s.openLocked(h, sum, known)
	if err != nil {
		unlease()
		return nil, m, nil, err
	}
	fail := func(err error) ([]byte, budget.Meta, func(), error) {
		f.Close()
		unlease()
		return nil, budget.Meta{}, nil, err
	}
	if m, err = s.readMeta(sum, f); err != nil {
		return fail(fmt.Errorf("artifact %s: %w", h, err))
	}
	if s.opt.TTL > 0 && s.opt.now().Sub(m.Created) > s.opt.TTL {
		return fail(fmt.Errorf("artifact %s: %w (stored %s, TTL %s)", h, budget.ErrExpired, m.Created.Format(time.RFC3339), s.opt.TTL))
	}
	fi, err := f.Stat()
	if err != nil {
		return fail(fmt.Errorf("artifact %s: %w", h, err))
	}
	size := fi.Size()
	if size != m.Bytes {
		return fail(fmt.Errorf("artifact %s: %w: the stored object has %d bytes, want %d", h, ErrCorrupt, size, m.Bytes))
	}
	if int64(int(size)) != size {
		return fail(fmt.Errorf("artifact %s: %d bytes cannot be mapped here", h, size))
	}
	if size > 0 {
		if data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED); err != nil {
			return fail(fmt.Errorf("artifact %s: map: %w", h, err))
		}
	} else {
		data = []byte{}
	}
	unmap := func() {
		if size > 0 {
			syscall.Munmap(data)
		}
	}
	hs := sha256.New()
	for off := 0; off < len(data); off += 4 << 20 {
		if err := ctx.Err(); err != nil {
			unmap()
			return fail(err)
		}
		hs.Write(data[off:min(off+4<<20, len(data))])
	}
	if got := hex.EncodeToString(hs.Sum(nil)); got != sum {
		unmap()
		return fail(fmt.Errorf("artifact %s: %w: the stored %d bytes hash to %s, want %s", h, ErrCorrupt, size, got[:16], sum[:16]))
	}
	// The file stays open: its shared lock tells collectors in other
	// processes that it is being read.
	return data, m, func() {
		unmap()
		f.Close()
		unlease()
	}, nil
}
