package artifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/toolcompact/compact/budget"
)

// ErrSpoolTooLarge is wrapped by Spool when the reader yields more than
// its limit.
var ErrSpoolTooLarge = errors.New("input larger than the limit")

// Spooled is input written into the store's temporary directory while it
// was read and hashed (DirStore.Spool), not stored yet: Commit stores it
// as an artifact without writing it again (a rename), Discard removes
// it. It implements budget.Spooled, so that a pipeline whose input it
// holds stores that input by committing it.
type Spooled struct {
	s    *DirStore
	f    *os.File
	size int64
	sum  string
	ct   string

	mu     sync.Mutex
	done   bool // committed or discarded
	handle budget.Handle
	meta   budget.Meta
	err    error
}

var _ budget.Spooled = (*Spooled)(nil)

// Spool writes r into a temporary file of the store while hashing it, up
// to max bytes (max < 0: no limit; more fails wrapping
// ErrSpoolTooLarge). The file is locked as being written, so that no
// collector removes it. The caller reads it (File, Size), then calls
// Commit or Discard; a process that dies leaves it to the collector's
// sweep of temporary files.
func (s *DirStore) Spool(ctx context.Context, r io.Reader, max int64) (*Spooled, error) {
	tmp, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "spool-*")
	if err != nil {
		return nil, fmt.Errorf("artifact store %s: cannot create a temporary file (is the directory writable?): %w", s.dir, err)
	}
	_ = lockFile(tmp, true, false)
	fail := func(err error) (*Spooled, error) {
		tmp.Close()
		os.Remove(tmp.Name())
		return nil, err
	}
	h := sha256.New()
	sn := &sniffer{}
	var w io.Writer = tmp
	if s.wrapWrite != nil {
		w = s.wrapWrite(w)
	}
	src := io.Reader(ctxReader{ctx, r})
	if max >= 0 {
		src = io.LimitReader(src, max+1)
	}
	n, err := hashCopy(w, src, io.MultiWriter(h, sn))
	if err != nil {
		return fail(fmt.Errorf("artifact store %s: spooling failed after %d bytes (is the disk full?): %w", s.dir, n, err))
	}
	if max >= 0 && n > max {
		return fail(fmt.Errorf("%w: more than %d bytes", ErrSpoolTooLarge, max))
	}
	return &Spooled{s: s, f: tmp, size: n, sum: hex.EncodeToString(h.Sum(nil)), ct: sn.contentType()}, nil
}

// File is the spooled bytes' file, open for reading (and mapping).
func (p *Spooled) File() *os.File { return p.f }

// Size is the number of bytes spooled.
func (p *Spooled) Size() int64 { return p.size }

// SHA256 is the digest of the spooled bytes, in hex.
func (p *Spooled) SHA256() string { return p.sum }

// Commit stores the spooled bytes as an artifact with metadata m, as Put
// would (same quota check, metadata, handle, collection), by syncing and
// renaming the file instead of writing it again. It may be called more
// than once (level 2 and storeAlways of one run): later calls return the
// first one's answer.
func (p *Spooled) Commit(ctx context.Context, m budget.Meta) (budget.Handle, budget.Meta, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		if p.handle == "" && p.err == nil {
			return "", m, errors.New("artifact store: the spooled input was discarded")
		}
		return p.handle, p.meta, p.err
	}
	p.done = true
	s := p.s
	p.err = func() error {
		if s.opt.MaxBytes > 0 && p.size > s.opt.MaxBytes {
			return overQuotaError(p.size, s.opt.MaxBytes)
		}
		if err := p.f.Sync(); err != nil {
			return fmt.Errorf("artifact store %s: fsync of %d bytes failed, nothing was stored: %w", s.dir, p.size, err)
		}
		m.SHA256, m.Bytes, m.Created = p.sum, p.size, s.opt.now().UTC()
		if m.ContentType == "" {
			m.ContentType = p.ct
		}
		// Still open (and mapped): from now on it is being read, not
		// written.
		_ = lockFile(p.f, false, false)
		release := s.lease(p.sum)
		defer release()
		h, err := s.commit(p.f.Name(), p.sum, m)
		if err != nil {
			return err
		}
		p.handle, p.meta = h, m // (commit counted its bytes)
		return nil
	}()
	if p.err != nil {
		os.Remove(p.f.Name())
		return "", m, p.err
	}
	s.maybeGC(ctx)
	return p.handle, p.meta, nil
}

// Discard removes the spooled file unless it was committed, and closes
// it. A mapping of it stays valid until unmapped.
func (p *Spooled) Discard() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.done {
		p.done = true
		os.Remove(p.f.Name())
	}
	p.f.Close()
}
