package artifact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
)

func newDir(t *testing.T, opt Options) *DirStore {
	t.Helper()
	s, err := NewDir(t.TempDir(), opt)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func put(t *testing.T, s budget.Store, data string) (budget.Handle, budget.Meta) {
	t.Helper()
	h, m, err := s.Put(context.Background(), strings.NewReader(data), budget.Meta{Tool: "test"})
	if err != nil {
		t.Fatal(err)
	}
	return h, m
}

func read(t *testing.T, s budget.Store, h budget.Handle) (string, error) {
	t.Helper()
	rc, _, err := s.Open(context.Background(), h)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	return string(b), err
}

func digest(s string) string {
	x := sha256.Sum256([]byte(s))
	return hex.EncodeToString(x[:])
}

func TestDirPutOpen(t *testing.T) {
	s := newDir(t, Options{})
	data := `{"items":[{"id":1},{"id":2}]}`
	h, m := put(t, s, data)
	if string(h) != digest(data)[:12] {
		t.Fatalf("handle %q, want the first 12 digits of %s", h, digest(data))
	}
	if m.SHA256 != digest(data) || m.Bytes != int64(len(data)) || m.Tool != "test" || m.ContentType != "application/json" || m.Created.IsZero() {
		t.Fatalf("meta %+v", m)
	}
	got, err := read(t, s, h)
	if err != nil || got != data {
		t.Fatalf("Open = %q, %v", got, err)
	}
	// The full digest works as a handle too.
	if got, err := read(t, s, budget.Handle(m.SHA256)); err != nil || got != data {
		t.Fatalf("Open(full digest) = %q, %v", got, err)
	}
	// Same bytes, same handle; the metadata is refreshed.
	h2, m2, err := s.Put(context.Background(), strings.NewReader(data), budget.Meta{Tool: "other"})
	if err != nil || h2 != h || m2.Tool != "other" {
		t.Fatalf("second Put = %q %+v %v", h2, m2, err)
	}
	// A fresh DirStore on the same directory sees it with its metadata.
	s2, err := NewDir(s.Dir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc, m3, err := s2.Open(context.Background(), h)
	if err != nil {
		t.Fatal(err)
	}
	rc.Close()
	if m3.Tool != "other" || m3.Bytes != int64(len(data)) {
		t.Fatalf("meta from disk %+v", m3)
	}
	if ents, _ := os.ReadDir(filepath.Join(s.Dir(), "tmp")); len(ents) != 0 {
		t.Fatalf("temporary files left: %v", ents)
	}
}

func TestSniff(t *testing.T) {
	s := newDir(t, Options{})
	for data, want := range map[string]string{
		`{"a":1}`:                     "application/json",
		" [1,2,3]\n":                  "application/json",
		"{\"a\":1}\n{\"a\":2}\n":      "application/x-ndjson",
		"line one\nline two\n":        "text/plain; charset=utf-8",
		"":                            "text/plain; charset=utf-8",
		"<html><body>x</body></html>": "text/html; charset=utf-8",
	} {
		_, m := put(t, s, data)
		if m.ContentType != want {
			t.Errorf("%q sniffed as %q, want %q", data, m.ContentType, want)
		}
	}
	// A declared type wins.
	_, m, err := s.Put(context.Background(), strings.NewReader("x"), budget.Meta{ContentType: "text/csv"})
	if err != nil || m.ContentType != "text/csv" {
		t.Fatalf("declared type: %+v %v", m, err)
	}
}

func TestOpenBadHandles(t *testing.T) {
	s := newDir(t, Options{})
	put(t, s, "something")
	for _, h := range []string{"../../etc/passwd", "abc", "a1b2c3d4e5f6/../../x", "A1B2C3D4E5F6", strings.Repeat("0", 65)} {
		_, _, err := s.Open(context.Background(), budget.Handle(h))
		if !errors.Is(err, ErrBadRef) {
			t.Errorf("Open(%q) = %v, want ErrBadRef", h, err)
		}
	}
	_, _, err := s.Open(context.Background(), "0123456789ab")
	if !errors.Is(err, budget.ErrNotFound) || !strings.Contains(err.Error(), "0123456789ab") {
		t.Errorf("unknown handle: %v", err)
	}
	_, _, err = s.Open(context.Background(), budget.Handle(strings.Repeat("0", 64)))
	if !errors.Is(err, budget.ErrNotFound) {
		t.Errorf("unknown digest: %v", err)
	}
}

func TestCorruptedIsNeverServed(t *testing.T) {
	s := newDir(t, Options{})
	data := strings.Repeat("precious bytes\n", 1000)
	h, m := put(t, s, data)
	p := s.objectPath(m.SHA256)
	b, _ := os.ReadFile(p)
	b[500] ^= 1
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	rc, _, err := s.Open(context.Background(), h)
	if !errors.Is(err, ErrCorrupt) || rc != nil {
		t.Fatalf("Open of a corrupted artifact = %v, want ErrCorrupt", err)
	}
	// Storing the bytes again heals it.
	put(t, s, data)
	// A damaged sidecar (a crash before it reached the disk) is rebuilt
	// from the object; the bytes are served.
	os.WriteFile(s.metaPath(m.SHA256), []byte("{\"tool\":"), 0o600)
	rc, m2, err := s.Open(context.Background(), h)
	if err != nil || m2.Bytes != int64(len(data)) || m2.SHA256 != m.SHA256 {
		t.Fatalf("damaged sidecar: %+v, %v", m2, err)
	}
	rc.Close()
	if got, err := read(t, s, h); err != nil || got != data {
		t.Fatalf("after re-Put: %v", err)
	}
}

// A later artifact whose digest shares the first 12 digits of an issued
// handle gets a longer handle; the issued handle keeps its meaning.
func TestHandleCollision(t *testing.T) {
	s := newDir(t, Options{})
	data := "first artifact"
	h1, m1 := put(t, s, data)
	// Forge a second digest sharing 13 digits with the first and commit it
	// through the normal path (SHA-256 collisions cannot be produced).
	forged := m1.SHA256[:13] + strings.Repeat("0", 51)
	if forged == m1.SHA256 {
		forged = m1.SHA256[:13] + strings.Repeat("1", 51)
	}
	tmp, err := s.writeTemp([]byte("forged"), true)
	if err != nil {
		t.Fatal(err)
	}
	h2, err := s.commit(tmp, forged, budget.Meta{SHA256: forged, Bytes: 6, Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	if h2 == h1 || len(h2) != 14 || !strings.HasPrefix(forged, string(h2)) {
		t.Fatalf("colliding artifact got handle %q (first has %q); want the 14-digit prefix", h2, h1)
	}
	if sum, _, err := s.resolve(h1); err != nil || sum != m1.SHA256 {
		t.Fatalf("issued handle %q now resolves to %s, %v", h1, sum, err)
	}
	if got, err := read(t, s, h1); err != nil || got != data {
		t.Fatalf("Open(%q) = %q, %v", h1, got, err)
	}
	// Re-storing the first artifact keeps its handle.
	if h, _ := put(t, s, data); h != h1 {
		t.Fatalf("re-Put gave %q, want %q", h, h1)
	}
	// An artifact arriving after the forged one but sharing its prefix
	// (here: the first, under a fresh index) avoids both.
	os.RemoveAll(filepath.Join(s.Dir(), "handles"))
	os.MkdirAll(filepath.Join(s.Dir(), "handles"), 0o700)
	h3, err := s.issueHandle(m1.SHA256)
	if err != nil || len(h3) != 14 {
		t.Fatalf("with a stored digest sharing 13 digits, handle = %q, %v; want 14 digits", h3, err)
	}
}

func TestConcurrentWritersTwoStores(t *testing.T) {
	dir := t.TempDir()
	a, err := NewDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	same := strings.Repeat(`{"k":"shared value"}`+"\n", 100000) // 2 MB
	var wg sync.WaitGroup
	handles := make([]budget.Handle, 16)
	errs := make([]error, 16)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := a
			if i%2 == 1 {
				st = b
			}
			data := same
			if i%4 == 3 {
				data = fmt.Sprintf("distinct %d\n", i) + same
			}
			handles[i], _, errs[i] = st.Put(context.Background(), strings.NewReader(data), budget.Meta{Tool: fmt.Sprint(i)})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
		if i%4 != 3 && handles[i] != handles[0] {
			t.Fatalf("writer %d got %q, writer 0 %q", i, handles[i], handles[0])
		}
		want := same
		if i%4 == 3 {
			want = fmt.Sprintf("distinct %d\n", i) + same
		}
		for _, st := range []*DirStore{a, b} {
			if got, err := read(t, st, handles[i]); err != nil || got != want {
				t.Fatalf("artifact of writer %d: %d bytes, %v", i, len(got), err)
			}
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(ents) != 0 {
		t.Fatalf("temporary files left: %d", len(ents))
	}
}

// enospcWriter fails like a full disk after limit bytes.
type enospcWriter struct {
	w     io.Writer
	limit int
}

func (e *enospcWriter) Write(p []byte) (int, error) {
	if len(p) > e.limit {
		n, _ := e.w.Write(p[:e.limit])
		e.limit = 0
		return n, &os.PathError{Op: "write", Path: "tmp/put", Err: syscall.ENOSPC}
	}
	e.limit -= len(p)
	return e.w.Write(p)
}

func TestDiskFullLeavesNothing(t *testing.T) {
	s := newDir(t, Options{})
	s.wrapWrite = func(w io.Writer) io.Writer { return &enospcWriter{w: w, limit: 1 << 20} }
	_, _, err := s.Put(context.Background(), bytes.NewReader(make([]byte, 3<<20)), budget.Meta{})
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "nothing was stored") {
		t.Fatalf("Put on a full disk = %v", err)
	}
	for _, sub := range []string{"tmp", "objects", "handles"} {
		if ents, _ := os.ReadDir(filepath.Join(s.Dir(), sub)); len(ents) != 0 {
			t.Fatalf("%s is not empty after a failed Put: %v", sub, ents)
		}
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("upstream broke")
	}
	f.n--
	return copy(p, "chunk "), nil
}

func TestFailedOrCancelledInputLeavesNothing(t *testing.T) {
	s := newDir(t, Options{})
	if _, _, err := s.Put(context.Background(), &failingReader{n: 5}, budget.Meta{}); err == nil || !strings.Contains(err.Error(), "upstream broke") {
		t.Fatalf("failing reader: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.Put(ctx, strings.NewReader("x"), budget.Meta{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	for _, sub := range []string{"tmp", "objects", "handles"} {
		if ents, _ := os.ReadDir(filepath.Join(s.Dir(), sub)); len(ents) != 0 {
			t.Fatalf("%s not empty: %v", sub, ents)
		}
	}
}

func TestUnwritableDir(t *testing.T) {
	// A path under a regular file can never be a directory.
	f := filepath.Join(t.TempDir(), "file")
	os.WriteFile(f, []byte("x"), 0o600)
	_, err := NewDir(filepath.Join(f, "store"), Options{})
	if err == nil || !strings.Contains(err.Error(), "cannot create the directory") {
		t.Fatalf("NewDir under a file = %v", err)
	}
	// A store whose temporary directory cannot be written.
	s := newDir(t, Options{})
	if os.Geteuid() == 0 {
		// root ignores permission bits: replace tmp by a file instead.
		os.RemoveAll(filepath.Join(s.Dir(), "tmp"))
		os.WriteFile(filepath.Join(s.Dir(), "tmp"), nil, 0o600)
	} else {
		os.Chmod(filepath.Join(s.Dir(), "tmp"), 0o500)
		t.Cleanup(func() { os.Chmod(filepath.Join(s.Dir(), "tmp"), 0o700) })
	}
	_, _, err = s.Put(context.Background(), strings.NewReader("data"), budget.Meta{})
	if err == nil || !strings.Contains(err.Error(), "is the directory writable?") {
		t.Fatalf("Put into an unwritable store = %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(s.Dir(), "objects")); len(ents) != 0 {
		t.Fatal("something was stored")
	}
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestTTL(t *testing.T) {
	c := &clock{t: time.Now()}
	s := newDir(t, Options{TTL: time.Hour, GCInterval: -1, Now: c.Now})
	h, _ := put(t, s, "short-lived")
	c.Add(59 * time.Minute)
	if _, err := read(t, s, h); err != nil {
		t.Fatalf("before the TTL: %v", err)
	}
	c.Add(2 * time.Minute)
	if _, err := read(t, s, h); !errors.Is(err, budget.ErrExpired) {
		t.Fatalf("after the TTL, before GC: %v", err)
	}
	st, err := s.GC(context.Background())
	if err != nil || st.Expired != 1 {
		t.Fatalf("GC = %+v, %v", st, err)
	}
	if _, err := read(t, s, h); !errors.Is(err, budget.ErrExpired) || !strings.Contains(err.Error(), "removed by retention") {
		t.Fatalf("after GC: %v", err)
	}
	// The tombstone is forgotten after TombstoneTTL (30 days).
	c.Add(31 * 24 * time.Hour)
	s.GC(context.Background())
	if _, err := read(t, s, h); !errors.Is(err, budget.ErrNotFound) {
		t.Fatalf("after the tombstone TTL: %v", err)
	}
}

func TestQuotaOldestFirstSkipsReaders(t *testing.T) {
	c := &clock{t: time.Now()}
	dir := t.TempDir()
	s, _ := NewDir(dir, Options{MaxBytes: 3000, GCInterval: -1, Now: c.Now})
	var hs []budget.Handle
	for i := range 5 {
		h, _ := put(t, s, fmt.Sprintf("%04d", i)+strings.Repeat("x", 996))
		hs = append(hs, h)
		c.Add(time.Minute)
	}
	// A reader holds the oldest open, through a second store (another
	// process would look the same: only the file lock protects it).
	other, _ := NewDir(dir, Options{})
	rc, _, err := other.Open(context.Background(), hs[0])
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.GC(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Busy != 1 || st.Evicted != 2 || st.Kept != 3000 {
		t.Fatalf("GC = %+v; want the open artifact skipped and the next two oldest evicted", st)
	}
	b, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !strings.HasPrefix(string(b), "0000") || len(b) != 1000 {
		t.Fatalf("the reader lost its artifact: %d bytes, %v", len(b), err)
	}
	for i, want := range []error{nil, budget.ErrExpired, budget.ErrExpired, nil, nil} {
		if _, err := read(t, s, hs[i]); !errors.Is(err, want) {
			t.Fatalf("artifact %d: %v, want %v", i, err, want)
		}
	}
	// Closed now: when the next artifact needs room, it goes first.
	put(t, s, "5"+strings.Repeat("x", 999))
	if st, _ := s.GC(context.Background()); st.Evicted != 1 || st.Kept != 3000 {
		t.Fatalf("second GC = %+v", st)
	}
	if _, err := read(t, s, hs[0]); !errors.Is(err, budget.ErrExpired) {
		t.Fatalf("oldest after second GC: %v", err)
	}
	// An artifact over the whole quota is refused, not stored and evicted.
	_, _, err = s.Put(context.Background(), strings.NewReader(strings.Repeat("y", 3001)), budget.Meta{})
	if err == nil || !strings.Contains(err.Error(), "exceeds the store quota") {
		t.Fatalf("oversized Put = %v", err)
	}
}

// blockingReader delivers some bytes, then waits.
type blockingReader struct {
	first   []byte
	release chan struct{}
	rest    io.Reader
	started chan struct{}
}

func (b *blockingReader) Read(p []byte) (int, error) {
	if b.first != nil {
		n := copy(p, b.first)
		b.first = nil
		close(b.started)
		return n, nil
	}
	<-b.release
	return b.rest.Read(p)
}

func TestGCLeavesWritesInProgress(t *testing.T) {
	c := &clock{t: time.Now()}
	s := newDir(t, Options{TTL: time.Nanosecond, TempGrace: time.Nanosecond, GCInterval: -1, Now: c.Now})
	br := &blockingReader{first: []byte("head "), release: make(chan struct{}), rest: strings.NewReader("tail"), started: make(chan struct{})}
	done := make(chan error)
	var h budget.Handle
	go func() {
		var err error
		h, _, err = s.Put(context.Background(), br, budget.Meta{})
		done <- err
	}()
	<-br.started
	c.Add(48 * time.Hour)
	// Another store (as another process would) collects with a zero grace.
	other, _ := NewDir(s.Dir(), Options{TTL: time.Nanosecond, TempGrace: time.Nanosecond, GCInterval: -1, Now: func() time.Time { return time.Now().Add(48 * time.Hour) }})
	st, err := other.GC(context.Background())
	if err != nil || st.Temps != 0 {
		t.Fatalf("GC during a write = %+v, %v", st, err)
	}
	close(br.release)
	if err := <-done; err != nil {
		t.Fatalf("Put after GC: %v", err)
	}
	s.opt.TTL = 0
	if got, err := read(t, s, h); err != nil || got != "head tail" {
		t.Fatalf("stored %q, %v", got, err)
	}
	// A temporary file left by a crashed writer (not locked) is swept.
	os.WriteFile(filepath.Join(s.Dir(), "tmp", "put-crashed"), []byte("partial"), 0o600)
	if st, _ := other.GC(context.Background()); st.Temps != 1 {
		t.Fatalf("left-over temp not swept: %+v", st)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/some/cache")
	d, err := DefaultDir()
	if err != nil || d != "/some/cache/compact/artifacts" {
		t.Fatalf("DefaultDir = %q, %v", d, err)
	}
}

// Storing the same bytes again replaces the file; readers opening it at
// that moment must still get the artifact, never "expired".
func TestOpenWhileStoredAgain(t *testing.T) {
	s := newDir(t, Options{})
	data := strings.Repeat("same bytes\n", 2000)
	h, _ := put(t, s, data)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, _, err := s.Put(context.Background(), strings.NewReader(data), budget.Meta{}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 300 {
		if got, err := read(t, s, h); err != nil || got != data {
			close(stop)
			wg.Wait()
			t.Fatalf("read during re-Put: %d bytes, %v", len(got), err)
		}
	}
	close(stop)
	wg.Wait()
}

// Storing bytes the store already holds, from memory, leaves the object
// file in place (no second write and fsync), refreshes the metadata and
// with it the retention, and returns the same handle; a streamed reader
// takes the normal path and gives the same answer.
func TestPutKnownBytesKeepsObject(t *testing.T) {
	c := &clock{t: time.Now()}
	s := newDir(t, Options{TTL: time.Hour, GCInterval: -1, Now: c.Now})
	data := strings.Repeat("the same tool output\n", 500)
	h, m := put(t, s, data)
	before, err := os.Stat(s.objectPath(m.SHA256))
	if err != nil {
		t.Fatal(err)
	}
	c.Add(50 * time.Minute)
	h2, m2, err := s.Put(context.Background(), bytes.NewReader([]byte(data)), budget.Meta{Tool: "again"})
	if err != nil || h2 != h || m2.SHA256 != m.SHA256 || m2.Bytes != int64(len(data)) {
		t.Fatalf("second Put = %s %+v %v, want handle %s", h2, m2, err, h)
	}
	after, err := os.Stat(s.objectPath(m.SHA256))
	if err != nil || !os.SameFile(before, after) {
		t.Fatalf("the object was rewritten (same file: %v, %v)", err == nil && os.SameFile(before, after), err)
	}
	if st, err := s.Stat(context.Background(), h); err != nil || st.Tool != "again" || !st.Created.Equal(c.Now().UTC()) {
		t.Fatalf("metadata not refreshed: %+v, %v", st, err)
	}
	// 50 + 50 minutes after the first Put, 50 after the second: alive.
	c.Add(50 * time.Minute)
	if got, err := read(t, s, h); err != nil || got != data {
		t.Fatalf("after the refreshed TTL: %v", err)
	}
	// A streamed reader cannot be hashed first: the normal path stores it
	// anew, with the same handle.
	h3, _, err := s.Put(context.Background(), io.MultiReader(strings.NewReader(data)), budget.Meta{})
	if err != nil || h3 != h {
		t.Fatalf("streamed Put = %s, %v", h3, err)
	}
	if now, _ := os.Stat(s.objectPath(m.SHA256)); os.SameFile(after, now) {
		t.Fatal("the streamed Put kept the old file: the test does not see the two paths apart")
	}
}

// An object the collector removed is stored anew by an in-memory Put.
func TestPutKnownBytesAfterGC(t *testing.T) {
	c := &clock{t: time.Now()}
	s := newDir(t, Options{TTL: time.Hour, GCInterval: -1, Now: c.Now})
	data := "collected, then stored again"
	h, _ := put(t, s, data)
	c.Add(2 * time.Hour)
	if st, err := s.GC(context.Background()); err != nil || st.Expired != 1 {
		t.Fatalf("GC = %+v, %v", st, err)
	}
	h2, _, err := s.Put(context.Background(), strings.NewReader(data), budget.Meta{})
	if err != nil || h2 != h {
		t.Fatalf("Put after GC = %s, %v; want %s", h2, err, h)
	}
	if got, err := read(t, s, h); err != nil || got != data {
		t.Fatalf("read after re-Put: %q, %v", got, err)
	}
}

// A FIFO, a device or a symbolic link in place of a stored object, a
// sidecar or a temporary file never blocks the store: Open and Stat fail
// at once (ErrCorrupt and ErrNotRegular) and GC skips the entry and
// reports it. On the old code Open of a FIFO object and GC with a stale
// FIFO in tmp/ blocked forever.
func TestNonRegularEntriesNeverBlock(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	c := &clock{t: time.Now()}
	s := newDir(t, Options{TTL: time.Hour, GCInterval: -1, Now: c.Now})
	h, m := put(t, s, "precious bytes")
	h2, m2 := put(t, s, "other precious bytes")
	obj := s.objectPath(m.SHA256)
	os.Remove(obj)
	if err := syscall.Mkfifo(obj, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// The other object: a symbolic link to a FIFO; its sidecar a FIFO.
	fifo := filepath.Join(t.TempDir(), "fifo")
	syscall.Mkfifo(fifo, 0o600)
	os.Remove(s.objectPath(m2.SHA256))
	os.Symlink(fifo, s.objectPath(m2.SHA256))
	os.Remove(s.metaPath(m2.SHA256))
	syscall.Mkfifo(s.metaPath(m2.SHA256), 0o600)
	// A stale FIFO and a device link in tmp/.
	tmpFifo := filepath.Join(s.dir, "tmp", "stale-fifo")
	syscall.Mkfifo(tmpFifo, 0o600)
	os.Chtimes(tmpFifo, c.t.Add(-48*time.Hour), c.t.Add(-48*time.Hour))

	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, hh := range []budget.Handle{h, h2} {
			_, err := read(t, s, hh)
			if !errors.Is(err, ErrCorrupt) || !errors.Is(err, ErrNotRegular) {
				t.Errorf("Open(%s) = %v, want ErrCorrupt and ErrNotRegular", hh, err)
			}
			if err != nil && strings.Contains(err.Error(), s.dir) {
				t.Errorf("Open(%s) error names the store path: %v", hh, err)
			}
			if _, err := s.Stat(context.Background(), hh); !errors.Is(err, ErrNotRegular) {
				t.Errorf("Stat(%s) = %v, want ErrNotRegular", hh, err)
			}
		}
		c.Add(2 * time.Hour)
		st, err := s.GC(context.Background())
		if err != nil {
			t.Errorf("GC: %v", err)
		}
		joined := strings.Join(st.Skipped, "\n")
		for _, want := range []string{"tmp/stale-fifo: not a regular file (a FIFO)", m.SHA256 + ": not a regular file (a FIFO)", m2.SHA256 + ": not a regular file (a symbolic link)"} {
			if !strings.Contains(joined, want) {
				t.Errorf("GC skipped %q, want a line %q", st.Skipped, want)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the store blocked on a FIFO for 10 s")
	}
}

// An object deleted by something other than compact's retention is
// reported as deleted, not as "removed by retention"; one the collector
// removed says why and when.
func TestMissingObjectReason(t *testing.T) {
	c := &clock{t: time.Now()}
	s := newDir(t, Options{TTL: time.Hour, GCInterval: -1, Now: c.Now})
	h, m := put(t, s, "deleted by hand")
	os.Remove(s.objectPath(m.SHA256))
	_, err := read(t, s, h)
	if !errors.Is(err, budget.ErrExpired) || !strings.Contains(err.Error(), "deleted") || strings.Contains(err.Error(), "retention") && !strings.Contains(err.Error(), "did not remove") {
		t.Fatalf("deleted object: %v", err)
	}
	if _, err := s.Stat(context.Background(), h); err == nil || !strings.Contains(err.Error(), "deleted") {
		t.Fatalf("Stat of a deleted object: %v", err)
	}
	h2, _ := put(t, s, "expires")
	c.Add(2 * time.Hour)
	if _, err := s.GC(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err = read(t, s, h2)
	if !errors.Is(err, budget.ErrExpired) || !strings.Contains(err.Error(), "removed by retention: expired") || !strings.Contains(err.Error(), "TTL 1h0m0s") {
		t.Fatalf("expired object: %v", err)
	}
	// Stored again, it is served again and the tombstone is gone.
	put(t, s, "expires")
	if got, err := read(t, s, h2); err != nil || got != "expires" {
		t.Fatalf("stored again: %q, %v", got, err)
	}
}

// TestOverQuotaErrorSaysHowToRaiseIt: a Put larger than the whole quota
// fails with ErrOverQuota, names the flag and the config key that raise
// the quota, and does not name the store's directory or URL (the text
// reaches HTTP and MCP clients).
func TestOverQuotaErrorSaysHowToRaiseIt(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	ds, err := NewDir(dir, Options{MaxBytes: 100, GCInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := OpenBlob(ctx, "mem://", BlobOptions{Options: Options{MaxBytes: 100, GCInterval: -1}})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]budget.Store{"dir": ds, "blob": bs} {
		_, _, err := s.Put(ctx, strings.NewReader(strings.Repeat("y", 101)), budget.Meta{})
		if !errors.Is(err, ErrOverQuota) {
			t.Fatalf("%s: oversized Put = %v, want ErrOverQuota", name, err)
		}
		msg := err.Error()
		for _, want := range []string{"101 bytes", "quota of 100 bytes", "--store-max-bytes", "store_max_bytes", "nothing was stored"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: %q does not say %q", name, msg, want)
			}
		}
		if strings.Contains(msg, dir) || strings.Contains(msg, "mem://") {
			t.Errorf("%s: %q names the store's location", name, msg)
		}
	}
}
