package artifact

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolcompact/compact/budget"
)

// ErrCorrupt is returned when stored bytes no longer match their digest.
// A corrupted artifact is never served.
var ErrCorrupt = errors.New("artifact corrupted")

// errBusy: a file is locked by a reader or writer.
var errBusy = errors.New("file busy")

// ErrNotRegular marks a store entry that is not a regular file (a FIFO, a
// device, a socket, a directory or a symbolic link where an object, a
// sidecar or a temporary file should be). The store never opens such an
// entry for reading (it could block forever): Open and Stat fail with an
// error wrapping both ErrCorrupt and ErrNotRegular, and GC skips it and
// reports it in GCStats.Skipped.
var ErrNotRegular = errors.New("not a regular file")

// ErrOverQuota is the error a Put of one artifact larger than the whole
// store quota wraps. Its text names the sizes and how to raise the quota
// (the --store-max-bytes flag, the store_max_bytes config key), never the
// store's directory or URL: it reaches HTTP and MCP clients.
var ErrOverQuota = errors.New("artifact store: over its quota")

// overQuotaError is the error of a Put of n bytes into a store whose quota is max.
func overQuotaError(n, max int64) error {
	return fmt.Errorf("%w: an artifact of %d bytes exceeds the store quota of %d bytes; nothing was stored (raise the quota with --store-max-bytes SIZE or store_max_bytes in the config file; 0 is no quota)", ErrOverQuota, n, max)
}

// Options configure retention. The zero value keeps everything forever.
type Options struct {
	// TTL is how long an artifact is kept after it was (last) stored; 0
	// keeps it until the quota needs the room. Open fails with
	// budget.ErrExpired as soon as an artifact is older, even before the
	// collector has removed it.
	TTL time.Duration
	// MaxBytes is the quota for the bytes of all artifacts; 0 is no
	// quota. The collector removes the oldest artifacts first until the
	// total fits. Put refuses a single artifact larger than the quota.
	MaxBytes int64
	// GCInterval is how often Put runs the collector when TTL or
	// MaxBytes is set: 0 means every minute, a negative value never (call
	// GC yourself).
	GCInterval time.Duration
	// TombstoneTTL is how long the handle of a removed artifact keeps
	// answering budget.ErrExpired instead of budget.ErrNotFound; 0 means
	// 30 days. After that the handle may be issued again.
	TombstoneTTL time.Duration
	// TempGrace is the age after which an unlocked temporary file is
	// considered left over by a crash and removed; 0 means one hour.
	TempGrace time.Duration
	// Now replaces time.Now (tests).
	Now func() time.Time
}

func (o Options) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

func (o Options) withDefaults() Options {
	if o.GCInterval == 0 {
		o.GCInterval = time.Minute
	}
	if o.TombstoneTTL == 0 {
		o.TombstoneTTL = 30 * 24 * time.Hour
	}
	if o.TempGrace == 0 {
		o.TempGrace = time.Hour
	}
	return o
}

// DirStore is an artifact store in a local directory. It is safe for
// concurrent use, and several DirStores (in one or many processes) may
// share one directory.
//
// Layout:
//
//	objects/ab/<sha256>        the exact bytes
//	objects/ab/<sha256>.json   the metadata sidecar (budget.Meta)
//	handles/ab/<handle>        the index of issued handles: the digest
//	tmp/                       files being written
//	.lock                      commits (shared) vs. the collector (exclusive)
type DirStore struct {
	dir string
	opt Options

	leases

	// wrapWrite wraps the temporary file's writer (tests simulate a full
	// disk with it).
	wrapWrite func(io.Writer) io.Writer

	// usage tracks the bytes this process knows the store to hold, so
	// that a Put that takes the store over its quota collects at once
	// instead of at the next GCInterval.
	usage struct {
		sync.Mutex
		known bool
		bytes int64
	}
}

var _ budget.Store = (*DirStore)(nil)

// The retention compact's command line gives a store unless told
// otherwise (--store-ttl, --store-max-bytes, or store_ttl and
// store_max_bytes in a sidecar config file): a store left alone never
// fills the disk. A library user of NewDir or Open sets Options itself;
// zero values there still mean no TTL and no quota.
const (
	// DefaultTTL keeps an artifact seven days after it was last stored.
	DefaultTTL = 7 * 24 * time.Hour
	// DefaultMaxBytes keeps a store under 1 GiB, oldest artifacts
	// evicted first.
	DefaultMaxBytes = 1 << 30
	// DefaultQuotaShare is the share of its file system a local store's
	// default quota may take when that is more than DefaultMaxBytes
	// (DefaultQuota).
	DefaultQuotaShare = 0.05
)

// DefaultQuota is the quota compact's command line gives a local store in
// dir when none is configured: DefaultMaxBytes, or DefaultQuotaShare (5%)
// of the file system that holds dir when that is more. A quota is a cap
// on the whole store, and Put refuses one artifact larger than it: with a
// fixed 1 GiB, a 1 GB tool output could not be stored at all, so its run
// could not reach the artifact level. 5% of a 64 GB disk is 3.2 GB; the
// TTL still removes what is not stored again within it.
func DefaultQuota(dir string) int64 {
	if n, ok := fsSize(dir); ok && int64(float64(n)*DefaultQuotaShare) > DefaultMaxBytes {
		return int64(float64(n) * DefaultQuotaShare)
	}
	return DefaultMaxBytes
}

// Usage is what a store holds now.
type Usage struct {
	// Artifacts is the number of stored objects; Bytes their total size.
	Artifacts int   `json:"artifacts"`
	Bytes     int64 `json:"bytes"`
	// Oldest and Newest are the storage times of the oldest and newest
	// object (zero for an empty store).
	Oldest time.Time `json:"oldest,omitzero"`
	Newest time.Time `json:"newest,omitzero"`
	// TTL and MaxBytes are the store's retention settings (0: none).
	TTL      time.Duration `json:"ttl"`
	MaxBytes int64         `json:"max_bytes"`
}

// Usage counts the stored objects and their bytes (a read-only walk; it
// takes no lock and may be slightly stale under concurrent writes).
func (s *DirStore) Usage(ctx context.Context) (Usage, error) {
	u := Usage{TTL: s.opt.TTL, MaxBytes: s.opt.MaxBytes}
	shards, err := os.ReadDir(filepath.Join(s.dir, "objects"))
	if err != nil {
		return u, fmt.Errorf("artifact store %s: %w", s.dir, err)
	}
	for _, sh := range shards {
		if ctx.Err() != nil {
			return u, ctx.Err()
		}
		ents, _ := os.ReadDir(filepath.Join(s.dir, "objects", sh.Name()))
		for _, e := range ents {
			if len(e.Name()) != 64 || !e.Type().IsRegular() {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			u.Artifacts++
			u.Bytes += fi.Size()
			if t := fi.ModTime(); u.Oldest.IsZero() || t.Before(u.Oldest) {
				u.Oldest = t
			}
			if t := fi.ModTime(); t.After(u.Newest) {
				u.Newest = t
			}
		}
	}
	return u, nil
}

// DefaultDir returns $XDG_CACHE_HOME/compact/artifacts (os.UserCacheDir).
func DefaultDir() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("artifact store: no default directory: %w", err)
	}
	return filepath.Join(d, "compact", "artifacts"), nil
}

// NewDir opens (creating if needed) the store in dir.
func NewDir(dir string, opt Options) (*DirStore, error) {
	if dir == "" {
		return nil, fmt.Errorf("artifact store: empty directory name")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("artifact store %s: %w", dir, err)
	}
	for _, sub := range []string{"objects", "handles", "tmp"} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o700); err != nil {
			return nil, fmt.Errorf("artifact store %s: cannot create the directory (is it writable?): %w", abs, err)
		}
	}
	return &DirStore{dir: abs, opt: opt.withDefaults()}, nil
}

// Dir returns the store's directory.
func (s *DirStore) Dir() string { return s.dir }

func (s *DirStore) objectPath(sum string) string {
	return filepath.Join(s.dir, "objects", sum[:2], sum)
}
func (s *DirStore) metaPath(sum string) string { return s.objectPath(sum) + ".json" }

// gonePath is the tombstone GC leaves for an object it removed, holding
// the reason; an issued object missing without one was deleted by
// someone else.
func (s *DirStore) gonePath(sum string) string { return s.objectPath(sum) + ".gone" }
func (s *DirStore) handlePath(h string) string {
	return filepath.Join(s.dir, "handles", h[:2], h)
}

// storeLock takes the store-wide lock: shared for a commit, exclusive for
// the collector.
func (s *DirStore) storeLock(exclusive bool) (func(), error) {
	f, err := os.OpenFile(filepath.Join(s.dir, ".lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("artifact store %s: lock: %w", s.dir, err)
	}
	if err := lockFile(f, exclusive, false); err != nil {
		f.Close()
		return nil, fmt.Errorf("artifact store %s: lock: %w", s.dir, err)
	}
	return func() { f.Close() }, nil
}

// ctxReader stops a copy when ctx is done.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// Put streams r into the store while hashing it, and returns its handle
// and its metadata. The bytes reach their final name only once complete
// and synced: a failed Put (a full disk, a cancelled context, a failing
// reader) leaves nothing behind. Storing the same bytes again returns the
// same handle and refreshes the metadata (and with it the retention).
func (s *DirStore) Put(ctx context.Context, r io.Reader, m budget.Meta) (budget.Handle, budget.Meta, error) {
	h2, m2, ok, pre, err := s.putKnown(ctx, r, m)
	if ok || err != nil {
		return h2, m2, err
	}
	return s.putNew(ctx, r, m, pre)
}

// PutHashed is Put for in-memory bytes whose SHA-256 (hex) the caller
// computed: it does not hash them again (budget.HashedStore). A sum that
// is not the bytes' digest stores a corrupted object, which every read
// refuses (ErrCorrupt) and a later Put of the right bytes replaces.
func (s *DirStore) PutHashed(ctx context.Context, data []byte, sum string, m budget.Meta) (budget.Handle, budget.Meta, error) {
	if len(sum) != 64 {
		return "", m, fmt.Errorf("artifact store: PutHashed: %q is not a SHA-256 digest", sum)
	}
	sn := &sniffer{}
	sn.Write(data[:min(len(data), sniffLimit)])
	sn.total = int64(len(data))
	pre := &preHashed{sum: sum, contentType: sn.contentType(), size: int64(len(data))}
	if s.wrapWrite == nil && (s.opt.MaxBytes <= 0 || pre.size <= s.opt.MaxBytes) {
		h, m2, ok, err := s.putHeld(ctx, m, pre)
		if ok || err != nil {
			return h, m2, err
		}
	}
	return s.putNew(ctx, bytes.NewReader(data), m, pre)
}

// putNew writes r (pre, when not nil, its digest: not hashed again) to a
// temporary file and commits it.
func (s *DirStore) putNew(ctx context.Context, r io.Reader, m budget.Meta, pre *preHashed) (budget.Handle, budget.Meta, error) {
	tmp, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "put-*")
	if err != nil {
		return "", m, fmt.Errorf("artifact store %s: cannot create a temporary file (is the directory writable?): %w", s.dir, err)
	}
	// The exclusive lock marks the file as being written: the collector
	// leaves it alone, and it is released if this process dies.
	_ = lockFile(tmp, true, false)
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	h := sha256.New()
	sn := &sniffer{}
	var w io.Writer = tmp
	if s.wrapWrite != nil {
		w = s.wrapWrite(w)
	}
	var n int64
	if pre != nil {
		// putKnown hashed these in-memory bytes already: write them
		// without hashing them twice.
		n, err = io.Copy(w, ctxReader{ctx, r})
		if err == nil && n != pre.size {
			err = fmt.Errorf("the reader yielded %d bytes, its size is %d", n, pre.size)
		}
	} else {
		n, err = hashCopy(w, ctxReader{ctx, r}, io.MultiWriter(h, sn))
	}
	if err != nil {
		return "", m, fmt.Errorf("artifact store %s: storing failed after %d bytes, nothing was stored: %w", s.dir, n, err)
	}
	if s.opt.MaxBytes > 0 && n > s.opt.MaxBytes {
		return "", m, overQuotaError(n, s.opt.MaxBytes)
	}
	if err := tmp.Sync(); err != nil {
		return "", m, fmt.Errorf("artifact store %s: fsync of %d bytes failed, nothing was stored: %w", s.dir, n, err)
	}
	if err := tmp.Close(); err != nil {
		return "", m, fmt.Errorf("artifact store %s: closing %d written bytes failed, nothing was stored: %w", s.dir, n, err)
	}
	sum, sniffed := hex.EncodeToString(h.Sum(nil)), ""
	if pre != nil {
		sum, sniffed = pre.sum, pre.contentType
	} else {
		sniffed = sn.contentType()
	}
	m.SHA256 = sum
	m.Bytes = n
	m.Created = s.opt.now().UTC()
	if m.ContentType == "" {
		m.ContentType = sniffed
	}

	release := s.lease(sum)
	defer release()
	handle, err := s.commit(tmp.Name(), sum, m)
	if err != nil {
		return "", m, err
	}
	done = true
	s.maybeGC(ctx)
	return handle, m, nil
}

// errVanished reports that an object removed by the collector while
// putKnown checked it must be stored anew.
var errVanished = errors.New("artifact store: object removed while being stored again")

// sizedReader is an in-memory reader (*bytes.Reader, *strings.Reader):
// its bytes can be hashed without consuming it.
type sizedReader interface {
	io.ReaderAt
	Size() int64
}

// putKnown stores the metadata of bytes the store already holds without
// writing and syncing them again: the common case of a tool returning the
// same output twice. It applies only to in-memory readers, whose bytes it
// hashes first without consuming them, and only when the stored object
// has the same size and still hashes to the same digest (a damaged copy
// is replaced by the normal path). ok is false when the normal path must
// run; r is then unread, and pre, when not nil, holds the digest and the
// sniffed type of its bytes, so that the normal path need not hash them
// again.
func (s *DirStore) putKnown(ctx context.Context, r io.Reader, m budget.Meta) (budget.Handle, budget.Meta, bool, *preHashed, error) {
	sr, isSized := r.(sizedReader)
	if !isSized || s.wrapWrite != nil {
		return "", m, false, nil, nil
	}
	size := sr.Size()
	if s.opt.MaxBytes > 0 && size > s.opt.MaxBytes {
		return "", m, false, nil, nil // the normal path reports the quota
	}
	h := sha256.New()
	sn := &sniffer{}
	if _, err := io.Copy(io.MultiWriter(h, sn), ctxReader{ctx, io.NewSectionReader(sr, 0, size)}); err != nil {
		return "", m, false, nil, nil
	}
	pre := &preHashed{sum: hex.EncodeToString(h.Sum(nil)), contentType: sn.contentType(), size: size}
	handle, m, ok, err := s.putHeld(ctx, m, pre)
	if !ok {
		return "", m, false, pre, nil
	}
	return handle, m, true, nil, err
}

// putHeld is putKnown once the bytes are hashed (pre): ok is false when
// the store does not hold them and the normal path must run.
func (s *DirStore) putHeld(ctx context.Context, m budget.Meta, pre *preHashed) (budget.Handle, budget.Meta, bool, error) {
	sum, size := pre.sum, pre.size
	release := s.lease(sum)
	defer release()
	if !s.holds(ctx, sum, size) {
		return "", m, false, nil
	}
	m.SHA256 = sum
	m.Bytes = size
	m.Created = s.opt.now().UTC()
	if m.ContentType == "" {
		m.ContentType = pre.contentType
	}
	handle, err := s.commitKnown(sum, size, m)
	if errors.Is(err, errVanished) {
		return "", m, false, nil
	}
	if err != nil {
		return "", m, true, err
	}
	s.maybeGC(ctx)
	return handle, m, true, nil
}

// preHashed is what putKnown learnt of in-memory bytes it did not find
// stored.
type preHashed struct {
	sum, contentType string
	size             int64
}

// holds reports whether the object of sum is stored with size bytes that
// still hash to sum.
func (s *DirStore) holds(ctx context.Context, sum string, size int64) bool {
	f, err := openRegular(s.objectPath(sum))
	if err != nil {
		return false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || fi.Size() != size {
		return false
	}
	h := sha256.New()
	if _, err := io.Copy(h, ctxReader{ctx, f}); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == sum
}

// commitKnown refreshes the sidecar of an object already in place and
// issues its handle, under the shared store lock. The object is checked
// once more under the lock: the collector may have removed it meanwhile
// (it never removes a leased digest, but a lease does not stop an
// unleased GC that started earlier), and then the caller's error asks
// for the normal path.
func (s *DirStore) commitKnown(sum string, size int64, m budget.Meta) (budget.Handle, error) {
	unlock, err := s.storeLock(false)
	if err != nil {
		return "", err
	}
	defer unlock()
	if fi, err := os.Stat(s.objectPath(sum)); err != nil || fi.Size() != size {
		return "", errVanished
	}
	if err := s.writeMeta(sum, m); err != nil {
		return "", err
	}
	return s.issueHandle(sum)
}

// commit moves a complete temporary file to its content address, writes
// the sidecar and issues the handle, under the shared store lock.
func (s *DirStore) commit(tmpName, sum string, m budget.Meta) (budget.Handle, error) {
	unlock, err := s.storeLock(false)
	if err != nil {
		return "", err
	}
	defer unlock()
	shard := filepath.Dir(s.objectPath(sum))
	if err := os.MkdirAll(shard, 0o700); err != nil {
		return "", fmt.Errorf("artifact store %s: %w", s.dir, err)
	}
	// Renaming over an existing copy is safe: the bytes are identical,
	// and readers keep the inode they opened.
	if err := os.Rename(tmpName, s.objectPath(sum)); err != nil {
		return "", fmt.Errorf("artifact store %s: rename into place: %w", s.dir, err)
	}
	// The sidecar is not fsynced on its own: after a crash a damaged or
	// missing sidecar is rebuilt from the object (see readMeta); only the
	// object's bytes and its handle must be durable.
	if err := s.writeMeta(sum, m); err != nil {
		return "", err
	}
	os.Remove(s.gonePath(sum)) // stored again: no longer removed
	if err := syncDir(shard); err != nil {
		return "", fmt.Errorf("artifact store %s: fsync directory: %w", s.dir, err)
	}
	// Counted under the lock: a collection (exclusive) counts the object
	// in its scan or runs after this, never in between (noteKept).
	s.noteStored(m.Bytes)
	return s.issueHandle(sum)
}

// writeMeta replaces the sidecar of sum with m (not synced: a damaged
// or missing sidecar is rebuilt from the object, see readMeta).
func (s *DirStore) writeMeta(sum string, m budget.Meta) error {
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("artifact store: encoding metadata: %w", err)
	}
	name, err := s.writeTemp(mb, false)
	if err != nil {
		return err
	}
	if err := os.Rename(name, s.metaPath(sum)); err != nil {
		os.Remove(name)
		return fmt.Errorf("artifact store %s: %w", s.dir, err)
	}
	return nil
}

// writeTemp writes small data to a temporary file, synced if sync.
func (s *DirStore) writeTemp(data []byte, sync bool) (string, error) {
	f, err := os.CreateTemp(filepath.Join(s.dir, "tmp"), "small-*")
	if err != nil {
		return "", fmt.Errorf("artifact store %s: cannot create a temporary file: %w", s.dir, err)
	}
	_, err = f.Write(data)
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("artifact store %s: writing %s: %w", s.dir, f.Name(), err)
	}
	return f.Name(), nil
}

// issueHandle returns the handle of sum, issuing one if needed: the
// shortest prefix of at least MinHandleLen digits that is neither issued
// to another digest nor a prefix of another stored digest. A handle is a
// symbolic link whose target is the digest: symlink(2) fails if the name
// exists, so two processes can never issue one handle to two digests, and
// the digest is in the link itself (no file data to fsync).
func (s *DirStore) issueHandle(sum string) (budget.Handle, error) {
	shard := filepath.Join(s.dir, "handles", sum[:2])
	if err := os.MkdirAll(shard, 0o700); err != nil {
		return "", fmt.Errorf("artifact store %s: %w", s.dir, err)
	}
	var others []string
	if ents, err := os.ReadDir(filepath.Dir(s.objectPath(sum))); err == nil {
		for _, e := range ents {
			if n := e.Name(); len(n) == 64 && n != sum && n[:MinHandleLen] == sum[:MinHandleLen] {
				others = append(others, n)
			}
		}
	}
	for n, retried := MinHandleLen, false; n <= MaxHandleLen; n++ {
		cand := sum[:n]
		p := filepath.Join(shard, cand)
		got, err := readHandle(p)
		if err == nil {
			if got == sum {
				return budget.Handle(cand), nil
			}
			continue // issued to another digest
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("artifact store %s: reading handle index: %w", s.dir, err)
		}
		if n < MaxHandleLen && sharesPrefix(others, cand) {
			continue
		}
		err = s.createHandle(p, sum)
		if errors.Is(err, fs.ErrExist) && !retried {
			retried = true
			n-- // someone issued it just now: look again
			continue
		}
		if err != nil {
			return "", fmt.Errorf("artifact store %s: issuing handle: %w", s.dir, err)
		}
		if err := syncDir(shard); err != nil {
			return "", fmt.Errorf("artifact store %s: fsync directory: %w", s.dir, err)
		}
		return budget.Handle(cand), nil
	}
	return "", fmt.Errorf("artifact store %s: no free handle for %s", s.dir, sum) // unreachable: the full digest is free
}

// createHandle creates the handle p naming sum, failing with fs.ErrExist
// if p exists: a symbolic link, or where those are not available a file
// hard-linked into place.
func (s *DirStore) createHandle(p, sum string) error {
	err := os.Symlink(sum, p)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	name, werr := s.writeTemp([]byte(sum+"\n"), true)
	if werr != nil {
		return werr
	}
	defer os.Remove(name)
	return os.Link(name, p)
}

// readHandle returns the digest a handle names.
func readHandle(p string) (string, error) {
	target, err := os.Readlink(p)
	if err == nil {
		return target, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	b, err := readRegular(p) // a file handle (no symlinks here)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

func sharesPrefix(others []string, p string) bool {
	for _, o := range others {
		if strings.HasPrefix(o, p) {
			return true
		}
	}
	return false
}

// resolve maps a handle to a digest. known reports that the handle was
// issued (so a missing object means expired, not unknown).
func (s *DirStore) resolve(h budget.Handle) (sum string, known bool, err error) {
	if err := CheckHandle(h); err != nil {
		return "", false, err
	}
	sum, err = readHandle(s.handlePath(string(h)))
	switch {
	case err == nil:
		if len(sum) != 64 || !strings.HasPrefix(sum, string(h)) {
			return "", false, fmt.Errorf("%w: handle index entry %s is damaged", ErrCorrupt, s.handlePath(string(h)))
		}
		return sum, true, nil
	case errors.Is(err, fs.ErrNotExist):
		if len(h) == MaxHandleLen {
			return string(h), false, nil
		}
		return "", false, fmt.Errorf("%w: no artifact has handle %s in %s", budget.ErrNotFound, h, s.dir)
	default:
		return "", false, fmt.Errorf("artifact %s: reading handle index: %w", h, err)
	}
}

// Open returns the exact stored bytes of h after verifying them against
// their digest, and their metadata. It fails with budget.ErrNotFound for
// an unknown handle, budget.ErrExpired for an artifact removed or past
// its TTL, ErrCorrupt when the bytes no longer match, and ErrBadRef for a
// malformed handle. While the reader is open the collector leaves the
// artifact alone. Close it.
func (s *DirStore) Open(ctx context.Context, h budget.Handle) (io.ReadCloser, budget.Meta, error) {
	sum, known, err := s.resolve(h)
	if err != nil {
		return nil, budget.Meta{}, err
	}
	release := s.lease(sum)
	f, err := s.openLocked(h, sum, known)
	if err != nil {
		release()
		return nil, budget.Meta{}, err
	}
	fail := func(err error) (io.ReadCloser, budget.Meta, error) {
		f.Close()
		release()
		return nil, budget.Meta{}, err
	}
	m, err := s.readMeta(sum, f)
	if err != nil {
		return fail(fmt.Errorf("artifact %s: %w", h, err))
	}
	if s.opt.TTL > 0 && s.opt.now().Sub(m.Created) > s.opt.TTL {
		return fail(fmt.Errorf("artifact %s: %w (stored %s, TTL %s)", h, budget.ErrExpired, m.Created.Format(time.RFC3339), s.opt.TTL))
	}
	// Verify before serving: a corrupted artifact is an error, never
	// partly written to the caller's output.
	hs := sha256.New()
	n, err := io.Copy(hs, bufio.NewReaderSize(f, copyBufSize))
	if err != nil {
		return fail(fmt.Errorf("artifact %s: reading: %w", h, err))
	}
	if got := hex.EncodeToString(hs.Sum(nil)); got != sum || n != m.Bytes {
		return fail(fmt.Errorf("artifact %s: %w: the stored %d bytes hash to %s, want %s (%d bytes)", h, ErrCorrupt, n, got[:16], sum[:16], m.Bytes))
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fail(fmt.Errorf("artifact %s: %w", h, err))
	}
	return &verifyingReader{f: f, h: sha256.New(), want: sum, handle: h, release: release}, m, nil
}

// openLocked opens the object of sum with a shared lock. The file opened
// may have been replaced (the same bytes stored again) or removed (by the
// collector) before the lock was granted: a replaced file is opened
// again, a removed one is ErrExpired.
func (s *DirStore) openLocked(h budget.Handle, sum string, known bool) (*os.File, error) {
	for try := 0; ; try++ {
		f, err := openRegular(s.objectPath(sum))
		if err != nil {
			if errors.Is(err, ErrNotRegular) {
				return nil, notRegular(h, err)
			}
			if errors.Is(err, fs.ErrNotExist) {
				if known || try > 0 {
					return nil, s.missing(h, sum)
				}
				return nil, fmt.Errorf("artifact %s: %w (no artifact has this digest in %s)", h, budget.ErrNotFound, s.dir)
			}
			return nil, fmt.Errorf("artifact %s: %w", h, err)
		}
		if err := lockFile(f, false, false); err != nil {
			f.Close()
			return nil, fmt.Errorf("artifact %s: lock: %w", h, err)
		}
		if !unlinked(f) {
			return f, nil
		}
		f.Close()
		if try == 3 {
			return nil, s.missing(h, sum)
		}
	}
}

// readMeta reads the sidecar; a missing or damaged sidecar (a commit in
// progress, or a crash before it reached the disk) is rebuilt from the
// object itself.
func (s *DirStore) readMeta(sum string, f *os.File) (budget.Meta, error) {
	var m budget.Meta
	b, err := readRegular(s.metaPath(sum))
	if err == nil && json.Unmarshal(b, &m) == nil && m.SHA256 == sum {
		return m, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, ErrNotRegular) {
		return m, err
	}
	m = budget.Meta{}
	fi, err := f.Stat()
	if err != nil {
		return m, err
	}
	return budget.Meta{Created: fi.ModTime().UTC(), Bytes: fi.Size(), SHA256: sum}, nil
}

// verifyingReader hashes what it serves again and fails at EOF if the
// file changed after the check in Open.
type verifyingReader struct {
	f       *os.File
	h       hash.Hash
	want    string
	handle  budget.Handle
	release func()
	closed  bool
}

func (r *verifyingReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	r.h.Write(p[:n])
	if err == io.EOF && hex.EncodeToString(r.h.Sum(nil)) != r.want {
		return n, fmt.Errorf("artifact %s: %w while reading", r.handle, ErrCorrupt)
	}
	return n, err
}

func (r *verifyingReader) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	err := r.f.Close()
	r.release()
	return err
}

// GCStats reports what one collection did.
type GCStats struct {
	// Scanned is the number of artifacts looked at.
	Scanned int `json:"scanned"`
	// Expired and Evicted count the artifacts removed for their TTL and
	// for the quota.
	Expired int `json:"expired"`
	Evicted int `json:"evicted"`
	// Busy counts artifacts that would have been removed but were being
	// read or written.
	Busy int `json:"busy"`
	// Freed is the number of bytes removed; Kept the bytes left.
	Freed int64 `json:"freed"`
	Kept  int64 `json:"kept"`
	// Temps counts left-over temporary files removed.
	Temps int `json:"temps"`
	// Skipped lists the store entries left alone because they are not
	// regular files (a FIFO or device in tmp/ or objects/), each as
	// "path (store-relative): reason". GC never opens such an entry.
	Skipped []string `json:"skipped,omitempty"`
}

func (s *DirStore) maybeGC(ctx context.Context) {
	if (s.opt.TTL == 0 && s.opt.MaxBytes == 0) || s.opt.GCInterval < 0 {
		return
	}
	if s.overQuota() {
		// Over the quota: collect now, down to nine tenths of it, so that
		// the next collections are not one per Put. (gc records what it
		// kept: noteKept.)
		s.gc(ctx, s.opt.MaxBytes-s.opt.MaxBytes/10)
		return
	}
	if s.gcDue(s.opt.now(), s.opt.GCInterval) {
		s.GC(ctx) // best effort; the next Put or an explicit GC retries
	}
}

// noteStored adds n stored bytes to the known usage.
func (s *DirStore) noteStored(n int64) {
	s.usage.Lock()
	s.usage.bytes += n
	s.usage.Unlock()
}

// noteKept records the bytes a collection left, under its exclusive
// store lock: a Put counts its object under the shared lock (commit), so
// no object committed after the collection's scan is lost from the count
// (which let the store pass its quota by several objects: noteKept ran
// after the lock was released, over the count of an object committed
// in between, and the Puts after it saw no excess to collect).
func (s *DirStore) noteKept(n int64) {
	s.usage.Lock()
	s.usage.known, s.usage.bytes = true, n
	s.usage.Unlock()
}

// overQuota reports whether the known usage is over the quota (false
// until a collection has measured it).
func (s *DirStore) overQuota() bool {
	s.usage.Lock()
	defer s.usage.Unlock()
	return s.opt.MaxBytes > 0 && s.usage.known && s.usage.bytes > s.opt.MaxBytes
}

type gcEntry struct {
	sum     string
	size    int64
	created time.Time
}

// GC enforces the TTL and the quota: it removes expired artifacts, then the
// oldest ones until the total fits MaxBytes. It never removes an artifact
// that is open for reading or being stored (in this or another process),
// and it leaves the handles of removed artifacts as tombstones so that
// Open reports budget.ErrExpired rather than budget.ErrNotFound.
func (s *DirStore) GC(ctx context.Context) (GCStats, error) {
	return s.gc(ctx, s.opt.MaxBytes)
}

// gc is GC evicting down to limit bytes (when MaxBytes is set).
func (s *DirStore) gc(ctx context.Context, limit int64) (GCStats, error) {
	var st GCStats
	unlock, err := s.storeLock(true)
	if err != nil {
		return st, err
	}
	defer unlock()
	now := s.opt.now()

	var all []gcEntry
	shards, err := os.ReadDir(filepath.Join(s.dir, "objects"))
	if err != nil {
		return st, fmt.Errorf("artifact store %s: gc: %w", s.dir, err)
	}
	for _, sh := range shards {
		ents, err := os.ReadDir(filepath.Join(s.dir, "objects", sh.Name()))
		if err != nil {
			continue
		}
		for _, e := range ents {
			if len(e.Name()) != 64 && !(len(e.Name()) == 69 && strings.HasSuffix(e.Name(), ".json")) {
				continue
			}
			if !e.Type().IsRegular() {
				st.Skipped = append(st.Skipped, skipNote("objects/"+sh.Name()+"/"+e.Name(),
					fmt.Errorf("%w (%s)", ErrNotRegular, typeName(e.Type()))))
				continue
			}
			if len(e.Name()) != 64 {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue
			}
			en := gcEntry{sum: e.Name(), size: fi.Size(), created: fi.ModTime()}
			if b, err := readRegular(s.metaPath(e.Name())); err == nil {
				var m budget.Meta
				if json.Unmarshal(b, &m) == nil && !m.Created.IsZero() {
					en.created = m.Created
				}
			}
			all = append(all, en)
		}
	}
	st.Scanned = len(all)
	sort.Slice(all, func(i, j int) bool { return all[i].created.Before(all[j].created) })

	removed := map[string]bool{}
	var total int64
	for _, e := range all {
		total += e.size
	}
	if s.opt.TTL > 0 {
		for _, e := range all {
			if ctx.Err() != nil {
				return st, ctx.Err()
			}
			if now.Sub(e.created) <= s.opt.TTL {
				continue
			}
			switch err := s.remove(e.sum, fmt.Sprintf("expired: stored %s, TTL %s, removed %s",
				e.created.UTC().Format(time.RFC3339), s.opt.TTL, now.UTC().Format(time.RFC3339))); {
			case err == nil:
				removed[e.sum] = true
				st.Expired++
				st.Freed += e.size
				total -= e.size
			case errors.Is(err, errBusy):
				st.Busy++
			default:
				return st, err
			}
		}
	}
	if s.opt.MaxBytes > 0 {
		for _, e := range all {
			if total <= limit {
				break
			}
			if removed[e.sum] {
				continue
			}
			switch err := s.remove(e.sum, fmt.Sprintf("evicted to keep the store under its quota of %d bytes, removed %s",
				s.opt.MaxBytes, now.UTC().Format(time.RFC3339))); {
			case err == nil:
				removed[e.sum] = true
				st.Evicted++
				st.Freed += e.size
				total -= e.size
			case errors.Is(err, errBusy):
				st.Busy++
			default:
				return st, err
			}
		}
	}
	st.Kept = total
	s.noteKept(total)
	st.Temps = s.sweepTemps(now, &st.Skipped)
	s.sweepHandles(now, removed)
	return st, nil
}

// notRegular is the error of Open and Stat for an object that is not a
// regular file; it names no path (messages reach HTTP and MCP clients).
func notRegular(h budget.Handle, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("artifact %s: %w: the stored object is %w", h, ErrCorrupt, err)
}

// skipNote is one GCStats.Skipped line.
func skipNote(rel string, err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return rel + ": " + err.Error()
}

// typeName names the type of a directory entry that is not a regular file.
func typeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	}
	return "of type " + m.String()
}

// maxSidecar bounds what readRegular reads: sidecars and file handles are
// a few hundred bytes.
const maxSidecar = 1 << 20

// readRegular reads a small regular file (a sidecar or a file handle)
// through openRegular, so that a FIFO or device in its place fails at
// once instead of blocking.
func readRegular(p string) ([]byte, error) {
	f, err := openRegular(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSidecar+1))
	if err == nil && len(b) > maxSidecar {
		return nil, fmt.Errorf("%s: more than %d bytes", p, maxSidecar)
	}
	return b, err
}

// remove deletes one artifact unless it is leased in this process or
// locked by a reader or writer anywhere (errBusy).
func (s *DirStore) remove(sum, reason string) error {
	if s.leased(sum) {
		return errBusy
	}
	f, err := openRegular(s.objectPath(sum))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("artifact store %s: gc: %w", s.dir, err)
	}
	defer f.Close()
	if err := lockFile(f, true, true); err != nil {
		return errBusy
	}
	if err := os.Remove(s.objectPath(sum)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("artifact store %s: gc: %w", s.dir, err)
	}
	os.Remove(s.metaPath(sum))
	os.Remove(s.sidecarPath(sum, sidecarName))
	_ = os.WriteFile(s.gonePath(sum), []byte(reason+"\n"), 0o600) // best effort: without it the reason is less precise
	return nil
}

// missing is the error for an issued handle whose object is not in the
// store: removed by retention (GC's tombstone says why and when) or
// deleted by something else. Both wrap budget.ErrExpired.
func (s *DirStore) missing(h budget.Handle, sum string) error {
	if b, err := readRegular(s.gonePath(sum)); err == nil && len(b) > 0 {
		return fmt.Errorf("artifact %s: %w (removed by retention: %s)", h, budget.ErrExpired, strings.TrimSpace(string(b)))
	}
	return fmt.Errorf("artifact %s: %w (deleted: the object is no longer in the store, and compact's retention did not remove it)", h, budget.ErrExpired)
}

// sweepTemps removes temporary files left by a crashed writer: older than
// TempGrace and not locked.
func (s *DirStore) sweepTemps(now time.Time, skipped *[]string) int {
	n := 0
	ents, _ := os.ReadDir(filepath.Join(s.dir, "tmp"))
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < s.opt.TempGrace {
			continue
		}
		p := filepath.Join(s.dir, "tmp", e.Name())
		f, err := openRegular(p)
		if err != nil {
			if errors.Is(err, ErrNotRegular) {
				*skipped = append(*skipped, skipNote("tmp/"+e.Name(), err))
			}
			continue
		}
		if lockFile(f, true, true) == nil {
			if os.Remove(p) == nil {
				n++
			}
		}
		f.Close()
	}
	return n
}

// touchHandle restarts the tombstone clock of handle p: a link's own
// time cannot be set portably, so it is replaced by a new one.
func (s *DirStore) touchHandle(p, sum string) {
	tmp := filepath.Join(s.dir, "tmp", "handle-"+filepath.Base(p))
	os.Remove(tmp)
	if os.Symlink(sum, tmp) == nil {
		if os.Rename(tmp, p) != nil {
			os.Remove(tmp)
		}
		return
	}
	now := time.Now()
	_ = os.Chtimes(p, now, now) // a file handle
}

// sweepHandles starts the tombstone clock of the handles of just-removed
// artifacts, and forgets tombstones older than TombstoneTTL.
func (s *DirStore) sweepHandles(now time.Time, removed map[string]bool) {
	shards, _ := os.ReadDir(filepath.Join(s.dir, "handles"))
	for _, sh := range shards {
		dir := filepath.Join(s.dir, "handles", sh.Name())
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			p := filepath.Join(dir, e.Name())
			sum, err := readHandle(p)
			if err != nil {
				continue
			}
			if removed[sum] {
				s.touchHandle(p, sum)
				continue
			}
			if len(sum) != 64 {
				continue
			}
			if _, err := os.Stat(s.objectPath(sum)); !errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > s.opt.TombstoneTTL {
				os.Remove(p)
				os.Remove(s.gonePath(sum))
			}
		}
	}
}

// Stat returns the metadata of h without reading or verifying its bytes,
// with the same errors as Open for unknown, removed and expired artifacts.
func (s *DirStore) Stat(ctx context.Context, h budget.Handle) (budget.Meta, error) {
	sum, known, err := s.resolve(h)
	if err != nil {
		return budget.Meta{}, err
	}
	f, err := openRegular(s.objectPath(sum))
	if err != nil {
		if errors.Is(err, ErrNotRegular) {
			return budget.Meta{}, notRegular(h, err)
		}
		if errors.Is(err, fs.ErrNotExist) {
			if known {
				return budget.Meta{}, s.missing(h, sum)
			}
			return budget.Meta{}, fmt.Errorf("artifact %s: %w (no artifact has this digest in %s)", h, budget.ErrNotFound, s.dir)
		}
		return budget.Meta{}, fmt.Errorf("artifact %s: %w", h, err)
	}
	defer f.Close()
	m, err := s.readMeta(sum, f)
	if err != nil {
		return m, fmt.Errorf("artifact %s: %w", h, err)
	}
	if s.opt.TTL > 0 && s.opt.now().Sub(m.Created) > s.opt.TTL {
		return budget.Meta{}, fmt.Errorf("artifact %s: %w (stored %s, TTL %s)", h, budget.ErrExpired, m.Created.Format(time.RFC3339), s.opt.TTL)
	}
	return m, nil
}
