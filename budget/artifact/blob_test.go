package artifact

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/internal/s3server"
)

// fakeS3 serves an in-process S3 API on loopback and returns the URL of
// a bucket in it.
func fakeS3(t *testing.T) string {
	t.Helper()
	backend := s3mem.New()
	if err := backend.CreateBucket("artifacts"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(srv.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "test")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "test")
	t.Setenv("AWS_REGION", "us-east-1")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	return "s3://artifacts?endpoint=" + url.QueryEscape(srv.URL) + "&use_path_style=true&disable_https=true&region=us-east-1"
}

// blobURLs are the drivers the store is tested on: the in-memory and
// file drivers, the in-process S3 fake, and a real S3 server
// (versitygw, see internal/s3server) where it is installed; under CI=1 it
// must be.
func blobURLs(t *testing.T) map[string]string {
	m := map[string]string{
		"mem":  "mem://",
		"file": "file://" + filepath.ToSlash(t.TempDir()) + "?create_dir=1",
		"s3":   fakeS3(t),
	}
	if bin, why := s3server.Binary(); bin != "" || os.Getenv("CI") != "" {
		srv := s3server.Start(t, "artifacts")
		srv.SetEnv(t) // the fake takes any keys
		m["versitygw"] = srv.BucketURL("artifacts")
	} else {
		t.Log("not tested on a real S3 server: " + why)
	}
	return m
}

func openBoth(t *testing.T, u string, opt BlobOptions) (*BlobStore, *BlobStore) {
	t.Helper()
	if strings.HasPrefix(u, "mem://") {
		// Two stores over one in-memory bucket.
		b, err := blob.OpenBucket(context.Background(), u)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		return NewBlob(b, "mem", opt), NewBlob(b, "mem", opt)
	}
	a, err := OpenBlob(context.Background(), u, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenBlob(context.Background(), u, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

func keys(t *testing.T, s *BlobStore, prefix string) []string {
	var out []string
	it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
	for {
		o, err := it.Next(context.Background())
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.Key)
	}
}

func TestBlobStore(t *testing.T) {
	for name, u := range blobURLs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := &clock{t: time.Now()}
			a, b := openBoth(t, u, BlobOptions{Options: Options{TTL: time.Hour, GCInterval: -1, Now: c.Now}, MinAge: time.Minute, SpoolMemory: 1 << 10})
			data := strings.Repeat(`{"id":1,"msg":"hello"}`+"\n", 500) // 11 KB: spooled to a file
			h, m, err := a.Put(ctx, strings.NewReader(data), budget.Meta{Tool: "t"})
			if err != nil {
				t.Fatal(err)
			}
			if string(h) != digest(data)[:12] || m.ContentType != "application/x-ndjson" || m.Bytes != int64(len(data)) {
				t.Fatalf("Put = %q %+v", h, m)
			}
			// The other store (another replica) reads it, verified.
			if got, err := read(t, b, h); err != nil || got != data {
				t.Fatalf("read through the other store: %d bytes, %v", len(got), err)
			}
			if st, err := b.Stat(ctx, h); err != nil || st.Tool != "t" {
				t.Fatalf("Stat = %+v %v", st, err)
			}
			// Same bytes, same handle, from either replica, concurrently.
			var wg sync.WaitGroup
			hs := make([]budget.Handle, 6)
			errs := make([]error, 6)
			for i := range 6 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					st := a
					if i%2 == 1 {
						st = b
					}
					hs[i], _, errs[i] = st.Put(ctx, strings.NewReader(data), budget.Meta{Tool: fmt.Sprint(i)})
				}()
			}
			wg.Wait()
			for i := range 6 {
				if errs[i] != nil || hs[i] != h {
					t.Fatalf("concurrent Put %d = %q, %v", i, hs[i], errs[i])
				}
			}
			if got, err := read(t, a, h); err != nil || got != data {
				t.Fatalf("after concurrent writes: %v", err)
			}
			if tmp := keys(t, a, "tmp/"); len(tmp) != 0 {
				t.Fatalf("uploads left behind: %v", tmp)
			}
			// Bad handles.
			if _, _, err := a.Open(ctx, "../../etc/passwd"); !errors.Is(err, ErrBadRef) {
				t.Fatalf("traversal: %v", err)
			}
			if _, _, err := a.Open(ctx, "0123456789ab"); !errors.Is(err, budget.ErrNotFound) {
				t.Fatalf("unknown: %v", err)
			}
			// Corruption is detected.
			small := "small and precious"
			sh, sm, _ := a.Put(ctx, strings.NewReader(small), budget.Meta{})
			if err := a.bucket.WriteAll(ctx, objKey(sm.SHA256), []byte("small and Precious"), nil); err != nil {
				t.Fatal(err)
			}
			if _, _, err := b.Open(ctx, sh); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("corrupted: %v", err)
			}
			// A failing input leaves nothing behind.
			before := len(keys(t, a, ""))
			if _, _, err := a.Put(ctx, &failingReader{n: 3}, budget.Meta{}); err == nil || !strings.Contains(err.Error(), "nothing was stored") {
				t.Fatalf("failing reader: %v", err)
			}
			if after := len(keys(t, a, "")); after != before {
				t.Fatalf("%d keys before a failed Put, %d after", before, after)
			}
			// TTL, GC with the grace period, tombstones.
			c.Add(30 * time.Second)
			if st, err := a.GC(ctx); err != nil || st.Expired+st.Evicted != 0 {
				t.Fatalf("early GC = %+v, %v", st, err)
			}
			c.Add(2 * time.Hour)
			if _, _, err := b.Open(ctx, h); !errors.Is(err, budget.ErrExpired) {
				t.Fatalf("after TTL: %v", err)
			}
			// Real mod times are recent: tell the collector they are not.
			a.opt.MinAge = -time.Hour
			st, err := a.GC(ctx)
			if err != nil || st.Expired != 2 {
				t.Fatalf("GC = %+v, %v", st, err)
			}
			if _, _, err := b.Open(ctx, h); !errors.Is(err, budget.ErrExpired) || !strings.Contains(err.Error(), "removed") {
				t.Fatalf("after GC: %v", err)
			}
		})
	}
}

func TestBlobQuotaSkipsOpenReaders(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Now()}
	s, err := OpenBlob(ctx, "mem://", BlobOptions{Options: Options{MaxBytes: 250, GCInterval: -1, Now: c.Now}, MinAge: -time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var hs []budget.Handle
	for i := range 4 {
		h, _, err := s.Put(ctx, bytes.NewReader(bytes.Repeat([]byte{byte('a' + i)}, 100)), budget.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
		c.Add(time.Minute)
	}
	rc, _, err := s.Open(ctx, hs[0])
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.GC(ctx)
	rc.Close()
	if err != nil || st.Busy != 1 || st.Evicted != 2 || st.Kept != 200 {
		t.Fatalf("GC = %+v, %v; want the open one kept and the next two evicted", st, err)
	}
	if _, _, err := s.Open(ctx, hs[1]); !errors.Is(err, budget.ErrExpired) {
		t.Fatalf("evicted: %v", err)
	}
	if _, err := read(t, s, hs[3]); err != nil {
		t.Fatalf("newest: %v", err)
	}
}

func TestOpenPicksStore(t *testing.T) {
	ctx := context.Background()
	d := t.TempDir()
	s, err := Open(ctx, d, Options{})
	if _, ok := s.(*DirStore); !ok || err != nil {
		t.Fatalf("Open(dir) = %T, %v", s, err)
	}
	s, err = Open(ctx, "mem://", Options{})
	if _, ok := s.(*BlobStore); !ok || err != nil {
		t.Fatalf("Open(mem://) = %T, %v", s, err)
	}
	if _, err := Open(ctx, "nosuch://x", Options{}); err == nil {
		t.Fatal("unknown scheme accepted")
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	s, err = Open(ctx, "", Options{})
	if ds, ok := s.(*DirStore); !ok || err != nil || !strings.HasSuffix(ds.Dir(), filepath.Join("compact", "artifacts")) {
		t.Fatalf("Open(\"\") = %v, %v", s, err)
	}
}

// TestBlobGCSparesOtherReplicasReads: replica b is reading an old
// artifact when replica a's collector runs under quota pressure; the
// collector must keep what b reads (counting it Busy) and evict the next
// oldest instead, and b gets every byte. Across processes there are no
// locks or in-memory leases: on the old code a's collector removed the
// object between b's metadata and its bytes, and b's read failed with
// "removed by retention". On every driver, the real S3 server included.
func TestBlobGCSparesOtherReplicasReads(t *testing.T) {
	for name, u := range blobURLs(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			c := &clock{t: time.Now()}
			a, b := openBoth(t, u, BlobOptions{Options: Options{MaxBytes: 250, GCInterval: -1, Now: c.Now}, MinAge: -time.Hour})
			var hs []budget.Handle
			var datas []string
			for i := range 3 {
				data := strings.Repeat(string(rune('a'+i)), 100)
				h, _, err := a.Put(ctx, strings.NewReader(data), budget.Meta{})
				if err != nil {
					t.Fatal(err)
				}
				hs, datas = append(hs, h), append(datas, data)
				c.Add(time.Minute)
			}
			var st GCStats
			var gcErr error
			b.testHookRead = func() {
				b.testHookRead = nil
				st, gcErr = a.GC(ctx) // while b reads the oldest
			}
			got, err := read(t, b, hs[0])
			if err != nil || got != datas[0] {
				t.Fatalf("b's read of the oldest while a collected: %q, %v", got, err)
			}
			if gcErr != nil || st.Busy != 1 || st.Evicted != 1 || st.Kept != 200 {
				t.Fatalf("a's GC during b's read = %+v, %v; want the one b reads kept (busy) and the next evicted", st, gcErr)
			}
			if _, _, err := b.Open(ctx, hs[1]); !errors.Is(err, budget.ErrExpired) {
				t.Fatalf("the evicted one: %v", err)
			}
			// Nothing of the protocol stays behind once b is done.
			if left := append(keys(t, a, "readers/"), keys(t, a, "doomed/")...); len(left) != 0 {
				t.Fatalf("keys left behind: %v", left)
			}
			// And with b done, the oldest can go.
			a.opt.MaxBytes = 150
			if st, err := a.GC(ctx); err != nil || st.Evicted != 1 || st.Busy != 0 {
				t.Fatalf("GC after the read = %+v, %v", st, err)
			}
			if _, _, err := b.Open(ctx, hs[0]); !errors.Is(err, budget.ErrExpired) {
				t.Fatalf("evicted after the read: %v", err)
			}
		})
	}
}

// TestBlobGCSweepsCrashedReaders: the read announcements a crashed
// replica left go at a collection once stale: for an object that does not
// exist after the temporary grace period (a Put that died before its
// copy), for one that does after the grace period plus the lease time (a
// Put that died after it; on the old code this one stayed until its
// object was collected).
func TestBlobGCSweepsCrashedReaders(t *testing.T) {
	ctx := context.Background()
	c := &clock{t: time.Now()}
	s, err := OpenBlob(ctx, "mem://", BlobOptions{Options: Options{GCInterval: -1, Now: c.Now}})
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := s.Put(ctx, strings.NewReader("kept"), budget.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	absent := strings.Repeat("ab", 32)
	for _, k := range []string{readerKey(m.SHA256, "crashed"), readerKey(absent, "crashed")} {
		if err := s.bucket.WriteAll(ctx, k, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	c.Add(30 * time.Minute)
	s.GC(ctx)
	if left := keys(t, s, "readers/"); len(left) != 2 {
		t.Fatalf("after 30 minutes: %v, want both kept", left)
	}
	c.Add(35 * time.Minute) // past the grace period (1 h)
	s.GC(ctx)
	if left := keys(t, s, "readers/"); len(left) != 1 || !strings.Contains(left[0], m.SHA256) {
		t.Fatalf("after 65 minutes: %v, want the stored object's kept", left)
	}
	c.Add(10 * time.Minute) // past the grace period and the lease time
	s.GC(ctx)
	if left := keys(t, s, "readers/"); len(left) != 0 {
		t.Fatalf("after 75 minutes: %v, want none", left)
	}
	if _, err := read(t, s, budget.Handle(m.SHA256[:12])); err != nil {
		t.Fatal(err)
	}
}
