package artifact

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"gocloud.dev/blob"
	_ "gocloud.dev/blob/fileblob" // file:// URLs
	_ "gocloud.dev/blob/memblob"  // mem:// URLs
	_ "gocloud.dev/blob/s3blob"   // s3:// URLs
	"gocloud.dev/gcerrors"

	"github.com/toolcompact/compact/budget"
)

// BlobOptions configure a BlobStore: the retention Options plus the
// grace period that stands in for file locks across machines.
type BlobOptions struct {
	Options
	// MinAge protects fresh artifacts from the collector: an object
	// written less than MinAge ago is never removed, so that a replica's
	// write or read in flight is not pulled from under it (object stores
	// have no locks). 0 means 10 minutes.
	MinAge time.Duration
	// SpoolDir is where reads larger than SpoolMemory are verified before
	// they are served; "" is os.TempDir.
	SpoolDir string
	// SpoolMemory is the size up to which a read is verified in memory;
	// 0 means 8 MiB.
	SpoolMemory int64
}

// BlobStore is an artifact store in a gocloud.dev/blob bucket (file://,
// mem://, s3:// and the other drivers linked in), so that sidecars of many
// agent replicas can share artifacts. It keeps the guarantees of DirStore
// that an object store allows: objects appear only when complete (blob
// writers commit on Close), reads are verified before they are served,
// handles are issued with conditional writes (If-None-Match) so that no
// handle ever names two digests, and the collector removes the oldest
// artifacts first but never one younger than MinAge, open in this
// process, or being read by another replica (bloblease.go).
//
// Keys: objects/<sha256> (bytes), objects/<sha256>.json (metadata),
// handles/<handle> (the digest), tmp/<random> (uploads in progress),
// readers/<sha256>/<random> and doomed/<sha256> (bloblease.go).
type BlobStore struct {
	bucket *blob.Bucket
	url    string
	opt    BlobOptions

	leases
	// testHookRead runs in Open between the metadata and the bytes.
	testHookRead func()
}

var _ budget.Store = (*BlobStore)(nil)

// OpenBlob opens the store in the bucket at urlstr, such as
// "s3://bucket?region=us-east-1", "file:///var/lib/compact/artifacts" or
// "mem://". An optional prefix= query parameter keeps the store under a
// key prefix.
func OpenBlob(ctx context.Context, urlstr string, opt BlobOptions) (*BlobStore, error) {
	b, err := blob.OpenBucket(ctx, urlstr)
	if err != nil {
		return nil, fmt.Errorf("artifact store %s: %w", redact(urlstr), err)
	}
	return NewBlob(b, redact(urlstr), opt), nil
}

// NewBlob returns a store over an open bucket; name is used in errors.
// Close closes the bucket.
func NewBlob(b *blob.Bucket, name string, opt BlobOptions) *BlobStore {
	opt.Options = opt.Options.withDefaults()
	if opt.MinAge == 0 {
		opt.MinAge = 10 * time.Minute
	}
	if opt.SpoolMemory == 0 {
		opt.SpoolMemory = 8 << 20
	}
	return &BlobStore{bucket: b, url: name, opt: opt}
}

// Close closes the bucket.
func (s *BlobStore) Close() error { return s.bucket.Close() }

// redact removes credentials from a URL for messages.
func redact(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return "(unparsable URL)"
	}
	p.User = nil
	q := p.Query()
	for k := range q {
		if strings.Contains(strings.ToLower(k), "secret") || strings.Contains(strings.ToLower(k), "key") || strings.Contains(strings.ToLower(k), "token") {
			q.Set(k, "REDACTED")
		}
	}
	p.RawQuery = q.Encode()
	return p.String()
}

func objKey(sum string) string  { return "objects/" + sum }
func metaKey(sum string) string { return "objects/" + sum + ".json" }
func handleKey(h string) string { return "handles/" + h }

func randomName() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Put streams r to a temporary object while hashing it, then copies it to
// its content address (unless present), writes the metadata and issues
// the handle. A failed Put aborts the upload: nothing is left behind.
func (s *BlobStore) Put(ctx context.Context, r io.Reader, m budget.Meta) (budget.Handle, budget.Meta, error) {
	tmp := "tmp/" + randomName()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := s.bucket.NewWriter(wctx, tmp, &blob.WriterOptions{ContentType: "application/octet-stream"})
	if err != nil {
		return "", m, fmt.Errorf("artifact store %s: cannot start an upload: %w", s.url, err)
	}
	h := sha256.New()
	sn := &sniffer{}
	n, err := hashCopy(w, ctxReader{ctx, r}, io.MultiWriter(h, sn))
	over := err == nil && s.opt.MaxBytes > 0 && n > s.opt.MaxBytes
	if err != nil || over {
		cancel() // aborts the upload
		w.Close()
		s.bucket.Delete(context.WithoutCancel(ctx), tmp)
		if over {
			return "", m, overQuotaError(n, s.opt.MaxBytes)
		}
		return "", m, fmt.Errorf("artifact store %s: storing failed after %d bytes, nothing was stored: %w", s.url, n, err)
	}
	if err := w.Close(); err != nil {
		s.bucket.Delete(context.WithoutCancel(ctx), tmp)
		return "", m, fmt.Errorf("artifact store %s: completing the upload of %d bytes failed, nothing was stored: %w", s.url, n, err)
	}
	defer s.bucket.Delete(context.WithoutCancel(ctx), tmp)
	sum := hex.EncodeToString(h.Sum(nil))
	m.SHA256, m.Bytes, m.Created = sum, n, s.opt.now().UTC()
	if m.ContentType == "" {
		m.ContentType = sn.contentType()
	}
	release := s.lease(sum)
	defer release()
	// The object may be stored already, and old: keep other replicas'
	// collectors off it until its metadata says it was stored now.
	unhold, err := s.holdShared(ctx, sum)
	if err != nil {
		return "", m, err
	}
	defer unhold()
	if ok, err := s.bucket.Exists(ctx, objKey(sum)); err != nil {
		return "", m, fmt.Errorf("artifact store %s: %w", s.url, err)
	} else if !ok {
		if err := s.bucket.Copy(ctx, objKey(sum), tmp, nil); err != nil {
			return "", m, fmt.Errorf("artifact store %s: moving the upload into place: %w", s.url, err)
		}
	}
	mb, _ := json.MarshalIndent(m, "", "  ")
	if err := s.bucket.WriteAll(ctx, metaKey(sum), mb, &blob.WriterOptions{ContentType: "application/json"}); err != nil {
		return "", m, fmt.Errorf("artifact store %s: writing metadata: %w", s.url, err)
	}
	handle, err := s.issueHandle(ctx, sum)
	if err != nil {
		return "", m, err
	}
	s.maybeGC(ctx)
	return handle, m, nil
}

// issueHandle is DirStore.issueHandle over a bucket: conditional writes
// (If-None-Match: *) take the place of symlink(2).
func (s *BlobStore) issueHandle(ctx context.Context, sum string) (budget.Handle, error) {
	var others []string
	it := s.bucket.List(&blob.ListOptions{Prefix: objKey(sum[:MinHandleLen])})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fmt.Errorf("artifact store %s: listing: %w", s.url, err)
		}
		if name := strings.TrimPrefix(o.Key, "objects/"); len(name) == 64 && name != sum {
			others = append(others, name)
		}
	}
	for n, retried := MinHandleLen, false; n <= MaxHandleLen; n++ {
		cand := sum[:n]
		b, err := s.bucket.ReadAll(ctx, handleKey(cand))
		if err == nil {
			if strings.TrimSpace(string(b)) == sum {
				return budget.Handle(cand), nil
			}
			continue
		}
		if gcerrors.Code(err) != gcerrors.NotFound {
			return "", fmt.Errorf("artifact store %s: reading handle index: %w", s.url, err)
		}
		if n < MaxHandleLen && sharesPrefix(others, cand) {
			continue
		}
		err = s.bucket.WriteAll(ctx, handleKey(cand), []byte(sum+"\n"), &blob.WriterOptions{ContentType: "text/plain", IfNotExist: true})
		if gcerrors.Code(err) == gcerrors.FailedPrecondition && !retried {
			retried = true
			n--
			continue
		}
		if err != nil {
			return "", fmt.Errorf("artifact store %s: issuing handle: %w", s.url, err)
		}
		return budget.Handle(cand), nil
	}
	return "", fmt.Errorf("artifact store %s: no free handle for %s", s.url, sum)
}

func (s *BlobStore) resolve(ctx context.Context, h budget.Handle) (string, bool, error) {
	if err := CheckHandle(h); err != nil {
		return "", false, err
	}
	b, err := s.bucket.ReadAll(ctx, handleKey(string(h)))
	switch {
	case err == nil:
		sum := strings.TrimSpace(string(b))
		if len(sum) != 64 || !strings.HasPrefix(sum, string(h)) {
			return "", false, fmt.Errorf("%w: handle index entry %s is damaged", ErrCorrupt, handleKey(string(h)))
		}
		return sum, true, nil
	case gcerrors.Code(err) == gcerrors.NotFound:
		if len(h) == MaxHandleLen {
			return string(h), false, nil
		}
		return "", false, fmt.Errorf("%w: no artifact has handle %s in %s", budget.ErrNotFound, h, s.url)
	default:
		return "", false, fmt.Errorf("artifact %s: reading handle index: %w", h, err)
	}
}

// Stat returns the metadata of h without reading its bytes.
func (s *BlobStore) Stat(ctx context.Context, h budget.Handle) (budget.Meta, error) {
	sum, known, err := s.resolve(ctx, h)
	if err != nil {
		return budget.Meta{}, err
	}
	return s.stat(ctx, h, sum, known)
}

func (s *BlobStore) stat(ctx context.Context, h budget.Handle, sum string, known bool) (budget.Meta, error) {
	var m budget.Meta
	b, err := s.bucket.ReadAll(ctx, metaKey(sum))
	if err == nil {
		if err := json.Unmarshal(b, &m); err != nil {
			return m, fmt.Errorf("artifact %s: %w: metadata: %v", h, ErrCorrupt, err)
		}
	}
	attrs, aerr := s.bucket.Attributes(ctx, objKey(sum))
	if gcerrors.Code(aerr) == gcerrors.NotFound {
		if known {
			return m, fmt.Errorf("artifact %s: %w (removed by retention)", h, budget.ErrExpired)
		}
		return m, fmt.Errorf("artifact %s: %w (no artifact has this digest in %s)", h, budget.ErrNotFound, s.url)
	}
	if aerr != nil {
		return m, fmt.Errorf("artifact %s: %w", h, aerr)
	}
	if err != nil { // object without metadata: rebuild it
		m = budget.Meta{Created: attrs.ModTime.UTC(), Bytes: attrs.Size, SHA256: sum}
	}
	if s.opt.TTL > 0 && s.opt.now().Sub(m.Created) > s.opt.TTL {
		return m, fmt.Errorf("artifact %s: %w (stored %s, TTL %s)", h, budget.ErrExpired, m.Created.Format(time.RFC3339), s.opt.TTL)
	}
	return m, nil
}

// Open downloads h into a spool (memory or a temporary file) while
// hashing it, and serves it only if it matches its digest.
func (s *BlobStore) Open(ctx context.Context, h budget.Handle) (io.ReadCloser, budget.Meta, error) {
	sum, known, err := s.resolve(ctx, h)
	if err != nil {
		return nil, budget.Meta{}, err
	}
	release := s.lease(sum)
	unhold, err := s.holdShared(ctx, sum)
	if err != nil {
		release()
		return nil, budget.Meta{}, err
	}
	// Once verified, the bytes are in the spool: other replicas'
	// collectors may have the object.
	defer unhold()
	m, err := s.stat(ctx, h, sum, known)
	if err != nil {
		release()
		return nil, m, err
	}
	if s.testHookRead != nil {
		s.testHookRead()
	}
	rd, err := s.bucket.NewReader(ctx, objKey(sum), nil)
	if err != nil {
		release()
		if gcerrors.Code(err) == gcerrors.NotFound {
			return nil, m, fmt.Errorf("artifact %s: %w (removed by retention)", h, budget.ErrExpired)
		}
		return nil, m, fmt.Errorf("artifact %s: %w", h, err)
	}
	defer rd.Close()
	hs := sha256.New()
	var spool interface {
		io.ReadWriteSeeker
	}
	var file *os.File
	if m.Bytes <= s.opt.SpoolMemory {
		spool = &memSpool{}
	} else {
		if file, err = os.CreateTemp(s.opt.SpoolDir, "compact-artifact-*"); err != nil {
			release()
			return nil, m, fmt.Errorf("artifact %s: spool for verification: %w", h, err)
		}
		os.Remove(file.Name()) // unlinked: gone when closed
		spool = file
	}
	fail := func(err error) (io.ReadCloser, budget.Meta, error) {
		if file != nil {
			file.Close()
		}
		release()
		return nil, m, err
	}
	n, err := io.Copy(io.MultiWriter(spool, hs), rd)
	if err != nil {
		return fail(fmt.Errorf("artifact %s: reading: %w", h, err))
	}
	if got := hex.EncodeToString(hs.Sum(nil)); got != sum || n != m.Bytes {
		return fail(fmt.Errorf("artifact %s: %w: the stored %d bytes hash to %s, want %s (%d bytes)", h, ErrCorrupt, n, got[:16], sum[:16], m.Bytes))
	}
	if _, err := spool.Seek(0, io.SeekStart); err != nil {
		return fail(fmt.Errorf("artifact %s: %w", h, err))
	}
	return &spoolReader{r: spool, f: file, release: release}, m, nil
}

type memSpool struct {
	bytes.Buffer
	r *bytes.Reader
}

func (m *memSpool) Seek(off int64, whence int) (int64, error) {
	m.r = bytes.NewReader(m.Buffer.Bytes())
	return m.r.Seek(off, whence)
}

func (m *memSpool) Read(p []byte) (int, error) {
	if m.r == nil {
		m.r = bytes.NewReader(m.Buffer.Bytes())
	}
	return m.r.Read(p)
}

type spoolReader struct {
	r       io.Reader
	f       *os.File
	release func()
	once    sync.Once
}

func (s *spoolReader) Read(p []byte) (int, error) { return s.r.Read(p) }
func (s *spoolReader) Close() error {
	var err error
	s.once.Do(func() {
		if s.f != nil {
			err = s.f.Close()
		}
		s.release()
	})
	return err
}

func (s *BlobStore) maybeGC(ctx context.Context) {
	if (s.opt.TTL == 0 && s.opt.MaxBytes == 0) || s.opt.GCInterval < 0 {
		return
	}
	if s.gcDue(s.opt.now(), s.opt.GCInterval) {
		_, _ = s.GC(ctx)
	}
}

// GC enforces the TTL and the quota like DirStore.GC. Objects younger
// than MinAge and artifacts open in this process are never removed (Busy
// counts them). Removed artifacts keep their handle as a tombstone for
// TombstoneTTL.
func (s *BlobStore) GC(ctx context.Context) (GCStats, error) {
	var st GCStats
	now := s.opt.now()
	var all []gcEntry
	modTime := map[string]time.Time{}
	it := s.bucket.List(&blob.ListOptions{Prefix: "objects/"})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return st, fmt.Errorf("artifact store %s: gc: %w", s.url, err)
		}
		name := strings.TrimPrefix(o.Key, "objects/")
		if len(name) != 64 {
			continue
		}
		e := gcEntry{sum: name, size: o.Size, created: o.ModTime}
		if b, err := s.bucket.ReadAll(ctx, metaKey(name)); err == nil {
			var m budget.Meta
			if json.Unmarshal(b, &m) == nil && !m.Created.IsZero() {
				e.created = m.Created
			}
		}
		modTime[name] = o.ModTime
		all = append(all, e)
	}
	st.Scanned = len(all)
	sort.Slice(all, func(i, j int) bool { return all[i].created.Before(all[j].created) })
	var total int64
	for _, e := range all {
		total += e.size
	}
	removed := map[string]bool{}
	tryRemove := func(e gcEntry) (bool, error) {
		if s.leased(e.sum) || now.Sub(modTime[e.sum]) < s.opt.MinAge || now.Sub(e.created) < s.opt.MinAge {
			st.Busy++
			return false, nil
		}
		// Other replicas' readers (bloblease.go).
		ok, inTime, err := s.claim(ctx, e.sum)
		if err != nil {
			return false, err
		}
		if !ok {
			st.Busy++
			return false, nil
		}
		defer s.unclaim(ctx, e.sum)
		if !inTime() {
			st.Busy++
			return false, nil
		}
		if err := s.bucket.Delete(ctx, objKey(e.sum)); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return false, fmt.Errorf("artifact store %s: gc: %w", s.url, err)
		}
		s.bucket.Delete(ctx, metaKey(e.sum))
		removed[e.sum] = true
		st.Freed += e.size
		total -= e.size
		return true, nil
	}
	if s.opt.TTL > 0 {
		for _, e := range all {
			if now.Sub(e.created) <= s.opt.TTL {
				continue
			}
			ok, err := tryRemove(e)
			if err != nil {
				return st, err
			}
			if ok {
				st.Expired++
			}
		}
	}
	if s.opt.MaxBytes > 0 {
		for _, e := range all {
			if total <= s.opt.MaxBytes {
				break
			}
			if removed[e.sum] {
				continue
			}
			ok, err := tryRemove(e)
			if err != nil {
				return st, err
			}
			if ok {
				st.Evicted++
			}
		}
	}
	st.Kept = total
	// Uploads abandoned by a crashed replica.
	it = s.bucket.List(&blob.ListOptions{Prefix: "tmp/"})
	for {
		o, err := it.Next(ctx)
		if err != nil {
			break
		}
		if now.Sub(o.ModTime) > s.opt.TempGrace {
			if s.bucket.Delete(ctx, o.Key) == nil {
				st.Temps++
			}
		}
	}
	// Read announcements of a replica that crashed in a Put.
	for sum := range removed {
		delete(modTime, sum)
	}
	s.sweepReaders(ctx, modTime, now, s.opt.TempGrace)
	// Tombstones: restart the clock of removed artifacts' handles (by
	// rewriting them), forget old ones.
	it = s.bucket.List(&blob.ListOptions{Prefix: "handles/"})
	for {
		o, err := it.Next(ctx)
		if err != nil {
			break
		}
		b, err := s.bucket.ReadAll(ctx, o.Key)
		if err != nil {
			continue
		}
		sum := strings.TrimSpace(string(b))
		if removed[sum] {
			s.bucket.WriteAll(ctx, o.Key, b, nil)
			continue
		}
		if len(sum) != 64 || now.Sub(o.ModTime) <= s.opt.TombstoneTTL {
			continue
		}
		if ok, err := s.bucket.Exists(ctx, objKey(sum)); err == nil && !ok {
			s.bucket.Delete(ctx, o.Key)
		}
	}
	return st, nil
}

// Open returns the store at target: a local directory path (a DirStore,
// the default, with file locks), or a gocloud.dev/blob URL (file://,
// mem://, s3://) for a BlobStore that several machines can share. "" is
// DefaultDir.
func Open(ctx context.Context, target string, opt Options) (budget.Store, error) {
	if target == "" {
		d, err := DefaultDir()
		if err != nil {
			return nil, err
		}
		target = d
	}
	if i := strings.Index(target, "://"); i > 0 && !strings.ContainsAny(target[:i], `/\.`) {
		return OpenBlob(ctx, target, BlobOptions{Options: opt})
	}
	return NewDir(filepath.Clean(target), opt)
}

// Usage counts the stored objects and their bytes from one listing of
// objects/ (times are the bucket's modification times, as DirStore's
// are the files').
func (s *BlobStore) Usage(ctx context.Context) (Usage, error) {
	u := Usage{TTL: s.opt.TTL, MaxBytes: s.opt.MaxBytes}
	it := s.bucket.List(&blob.ListOptions{Prefix: "objects/"})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			return u, nil
		}
		if err != nil {
			return u, fmt.Errorf("artifact store %s: %w", s.url, err)
		}
		if len(strings.TrimPrefix(o.Key, "objects/")) != 64 {
			continue
		}
		u.Artifacts++
		u.Bytes += o.Size
		if u.Oldest.IsZero() || o.ModTime.Before(u.Oldest) {
			u.Oldest = o.ModTime
		}
		if o.ModTime.After(u.Newest) {
			u.Newest = o.ModTime
		}
	}
}
