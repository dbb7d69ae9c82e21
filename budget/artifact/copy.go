package artifact

import (
	"fmt"
	"io"
	"sync"
)

// copyBufSize is the chunk size of a streaming write; copyBufs chunks are
// in flight at most, so a Put holds 1 MiB whatever the output's size.
const (
	copyBufSize = 256 << 10
	copyBufs    = 4
)

var bufPool = sync.Pool{New: func() any { b := make([]byte, copyBufSize); return &b }}

// hashCopy copies r to w while feeding every byte, in order, to side (the
// hash and the sniffer) on another goroutine, so hashing overlaps writing.
// Unlike io.Copy it never uses ReaderFrom or WriterTo shortcuts, which
// could hold the whole input in memory.
func hashCopy(w io.Writer, r io.Reader, side io.Writer) (int64, error) {
	free := make(chan *[]byte, copyBufs)
	for range copyBufs {
		free <- bufPool.Get().(*[]byte)
	}
	type chunk struct {
		b *[]byte
		n int
	}
	work := make(chan chunk, copyBufs)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for c := range work {
			side.Write((*c.b)[:c.n]) // hashes and the sniffer never fail
			free <- c.b
		}
	}()
	var n int64
	var err error
	for {
		b := <-free
		k, rerr := io.ReadFull(r, *b)
		if k > 0 {
			work <- chunk{b, k}
			wk, werr := w.Write((*b)[:k])
			n += int64(wk)
			if werr == nil && wk < k {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				err = werr
				break
			}
		} else {
			free <- b
		}
		if rerr == io.EOF || rerr == io.ErrUnexpectedEOF {
			break
		}
		if rerr != nil {
			err = fmt.Errorf("reading the input: %w", rerr)
			break
		}
	}
	close(work)
	<-done
	for range copyBufs {
		bufPool.Put(<-free)
	}
	return n, err
}
