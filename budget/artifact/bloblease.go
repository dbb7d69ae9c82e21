package artifact

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// Replicas that share a bucket have no file locks, so a reader in one
// replica and the collector in another agree through two kinds of keys:
//
//	readers/<sha256>/<random>   a read (or a Put that reuses a stored
//	                            object) in progress in some replica
//	doomed/<sha256>             a collector is about to remove the object
//
// A reader writes its readers/ key, then looks for doomed/; a collector
// writes doomed/, then lists readers/. On a store whose writes are seen
// by every later request (S3 since 2020, and versitygw, which the
// replica tests run against), one of the two sees the other: either the
// collector sees the reader and keeps the object (Busy), or the reader
// sees doomed/ before it has read anything and waits until the collector
// is done (then it finds the object gone, a clean "removed by
// retention", or kept). What one replica reads is never removed by
// another.
//
// A crashed replica's keys do not block forever: a readers/ key older
// than blobLeaseTTL (by the server's clock, against the doomed/ key just
// written) is stale and removed; a doomed/ key is waited on for at most
// blobDoomTTL, and a collector that took longer than half of that
// between writing doomed/ and the removal gives up instead of removing.
const (
	blobLeaseTTL = 10 * time.Minute
	blobDoomTTL  = time.Minute
)

func readerKey(sum, id string) string { return "readers/" + sum + "/" + id }
func doomKey(sum string) string       { return "doomed/" + sum }

// holdShared announces a read of sum to the collectors of every replica
// and waits out a removal of sum in progress. The returned func withdraws
// the announcement.
func (s *BlobStore) holdShared(ctx context.Context, sum string) (func(), error) {
	key := readerKey(sum, randomName())
	if err := s.bucket.WriteAll(ctx, key, nil, &blob.WriterOptions{ContentType: "text/plain"}); err != nil {
		return nil, fmt.Errorf("artifact store %s: announcing a read: %w", s.url, err)
	}
	release := func() { s.bucket.Delete(context.WithoutCancel(ctx), key) }
	start := time.Now()
	for {
		doomed, err := s.bucket.Exists(ctx, doomKey(sum))
		if err != nil {
			release()
			return nil, fmt.Errorf("artifact store %s: %w", s.url, err)
		}
		if !doomed || time.Since(start) > blobDoomTTL {
			return release, nil
		}
		select {
		case <-ctx.Done():
			release()
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// claim tells every replica that sum is about to be removed and reports
// whether no replica is reading it. On true, the caller removes the
// object (if still in time, see inTime) and then calls unclaim.
func (s *BlobStore) claim(ctx context.Context, sum string) (ok bool, inTime func() bool, err error) {
	start := time.Now()
	inTime = func() bool { return time.Since(start) < blobDoomTTL/2 }
	if err := s.bucket.WriteAll(ctx, doomKey(sum), nil, &blob.WriterOptions{ContentType: "text/plain"}); err != nil {
		return false, inTime, fmt.Errorf("artifact store %s: gc: %w", s.url, err)
	}
	attrs, err := s.bucket.Attributes(ctx, doomKey(sum))
	if err != nil {
		s.unclaim(ctx, sum)
		return false, inTime, fmt.Errorf("artifact store %s: gc: %w", s.url, err)
	}
	serverNow := attrs.ModTime
	busy := false
	it := s.bucket.List(&blob.ListOptions{Prefix: "readers/" + sum + "/"})
	for {
		o, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			s.unclaim(ctx, sum)
			return false, inTime, fmt.Errorf("artifact store %s: gc: %w", s.url, err)
		}
		if serverNow.Sub(o.ModTime) < blobLeaseTTL {
			busy = true
		} else {
			s.bucket.Delete(ctx, o.Key) // a crashed replica's
		}
	}
	if busy || !inTime() {
		s.unclaim(ctx, sum)
		return false, inTime, nil
	}
	return true, inTime, nil
}

func (s *BlobStore) unclaim(ctx context.Context, sum string) {
	s.bucket.Delete(context.WithoutCancel(ctx), doomKey(sum))
}

// sweepReaders removes the readers/ keys a crashed replica left: those
// of objects that do not exist, older than grace (a Put that died before
// its copy), and any older than grace past blobLeaseTTL (no collector
// heeds them any more; a Put that died after its copy).
func (s *BlobStore) sweepReaders(ctx context.Context, exists map[string]time.Time, now time.Time, grace time.Duration) {
	it := s.bucket.List(&blob.ListOptions{Prefix: "readers/"})
	for {
		o, err := it.Next(ctx)
		if err != nil {
			return
		}
		sum, _, _ := strings.Cut(strings.TrimPrefix(o.Key, "readers/"), "/")
		_, ok := exists[sum]
		if age := now.Sub(o.ModTime); (!ok && age > grace) || age > grace+blobLeaseTTL {
			if err := s.bucket.Delete(ctx, o.Key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
				return
			}
		}
	}
}
