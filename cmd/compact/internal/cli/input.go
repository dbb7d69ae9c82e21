package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"

	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/host"
)

// spoolThreshold is the size up to which input from a pipe is read into
// memory; beyond it the input is spooled to a temporary file and mapped,
// so that memory does not grow by doubling a buffer (io.ReadAll peaks
// above twice the input) and an input larger than memory can still be
// read, up to the free space of the temporary directory. A variable so
// that a test can spool small inputs.
var spoolThreshold = 64 << 20

// storeSpoolThreshold is spoolThreshold when the input can be spooled
// into the local artifact store (mapInput): an input that fits is then
// written to the page cache and discarded, a large one is written once.
var storeSpoolThreshold = 1 << 20

// noLimit is the max of readInput and mapInput when --max-input is not
// given: inputs are bounded by memory or disk space only.
const noLimit = -1

// mapInput reads FILE, or standard input for "-" or no name, refusing more
// than max bytes (max < 0: no limit). A regular file (named, or
// redirected to standard input) is mapped into memory instead of read
// (see mapFile); input from a pipe is read into memory up to
// spoolThreshold and spooled to a temporary file and mapped beyond. The
// bytes are valid until release is called; they must not be written.
// Its errors carry ExitInput.
//
// With a store that can spool (to, a local DirStore), input from a pipe
// beyond spoolThreshold is spooled into the store's temporary directory
// while it is hashed, and returned as spooled: level 2 then commits that
// file as the artifact instead of writing the input a second time.
// release discards the spooled file unless it was committed.
func mapInput(ctx context.Context, name string, stdin io.Reader, max int64, to *artifact.DirStore) (data []byte, release func(), spooled *artifact.Spooled, err error) {
	f, label, err := openInput(name, stdin)
	if err != nil {
		return nil, nil, nil, err
	}
	if name != "" && name != "-" {
		defer f.(*os.File).Close()
	}
	if file, ok := f.(*os.File); ok {
		if st, err := file.Stat(); err == nil && st.Mode().IsRegular() {
			if max >= 0 && st.Size() > max {
				return nil, nil, nil, withCode(ExitInput, tooLarge(label, st.Size(), max))
			}
			if data, release, err := mapFile(file, st.Size()); err == nil {
				return data, release, nil, nil
			}
			// Not mappable (a file system without mmap): read it.
		}
	}
	limit := int64(spoolThreshold)
	if to != nil {
		// Spooled into the store, a large input is written once and
		// mapped: reading 64 MiB into memory first only added to the
		// peak (100 MB from a pipe peaked at 2.9x, 1.4x from a file).
		limit = min(limit, int64(storeSpoolThreshold))
	}
	if max >= 0 && max < limit {
		limit = max
	}
	head, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, nil, nil, withCode(ExitInput, fmt.Errorf("cannot read %s: %w", label, err))
	}
	if int64(len(head)) <= limit {
		return head, func() {}, nil, nil
	}
	if max >= 0 && int64(len(head)) > max {
		return nil, nil, nil, withCode(ExitInput, tooLarge(label, -1, max))
	}
	if to != nil {
		return spoolStore(ctx, to, head, f, label, max)
	}
	data, release, err = spool(head, f, label, max)
	return data, release, nil, err
}

// spoolStore spools head and the rest of r into the store (see mapInput)
// and maps the spooled file.
func spoolStore(ctx context.Context, to *artifact.DirStore, head []byte, r io.Reader, label string, max int64) ([]byte, func(), *artifact.Spooled, error) {
	sp, err := to.Spool(ctx, io.MultiReader(bytes.NewReader(head), r), max)
	if errors.Is(err, artifact.ErrSpoolTooLarge) {
		return nil, nil, nil, withCode(ExitInput, tooLarge(label, -1, max))
	}
	if err != nil {
		return nil, nil, nil, withCode(ExitInput, fmt.Errorf("cannot spool %s: %w", label, err))
	}
	data, unmap, err := mapFile(sp.File(), sp.Size())
	if err != nil {
		sp.Discard()
		return nil, nil, nil, withCode(ExitInput, fmt.Errorf("cannot map the spooled %s (%d bytes): %w", label, sp.Size(), err))
	}
	return data, func() { unmap(); sp.Discard() }, sp, nil
}

// spool writes head and the rest of r to a temporary file, removed at
// once, and maps it.
func spool(head []byte, r io.Reader, label string, max int64) ([]byte, func(), error) {
	tmp, err := os.CreateTemp("", "compact-input-*")
	if err != nil {
		return nil, nil, withCode(ExitInput, fmt.Errorf("cannot spool %s to a temporary file: %w", label, err))
	}
	os.Remove(tmp.Name()) // the open file and its mapping keep the bytes
	defer tmp.Close()
	if _, err := tmp.Write(head); err != nil {
		return nil, nil, withCode(ExitInput, fmt.Errorf("cannot spool %s to %s: %w", label, tmp.Name(), err))
	}
	rest := r
	if max >= 0 {
		rest = io.LimitReader(r, max-int64(len(head))+1)
	}
	n, err := io.Copy(tmp, rest)
	size := int64(len(head)) + n
	if err != nil {
		return nil, nil, withCode(ExitInput, fmt.Errorf("cannot spool %s to %s after %d bytes (is the temporary directory full? set TMPDIR): %w", label, tmp.Name(), size, err))
	}
	if max >= 0 && size > max {
		return nil, nil, withCode(ExitInput, tooLarge(label, -1, max))
	}
	data, release, err := mapFile(tmp, size)
	if err != nil {
		return nil, nil, withCode(ExitInput, fmt.Errorf("cannot map the spooled %s (%d bytes): %w", label, size, err))
	}
	return data, release, nil
}

// openInput opens FILE, or returns standard input for "-" or no name
// (refusing a terminal), with the label errors name it by.
func openInput(name string, stdin io.Reader) (io.Reader, string, error) {
	if name == "" || name == "-" {
		if f, ok := stdin.(*os.File); ok {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				return nil, "", withCode(ExitUsage, errors.New("standard input is a terminal: give a FILE, or pipe the tool output in"))
			}
		}
		return stdin, "standard input", nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, "", withCode(ExitInput, fmt.Errorf("cannot read input: %w", err))
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, "", withCode(ExitInput, fmt.Errorf("cannot read input: %w", err))
	}
	if st.IsDir() {
		f.Close()
		return nil, "", withCode(ExitInput, fmt.Errorf("cannot read input %s: is a directory", name))
	}
	return f, name, nil
}

// isFault reports whether err is the runtime error of a memory fault
// (debug.SetPanicOnFault), as reading a mapped file that shrank causes.
func isFault(err error) bool {
	var addr interface{ Addr() uintptr }
	return errors.As(err, &addr)
}

// largeInputGC is the garbage collector's target (GOGC) for inputs of at
// least spoolThreshold bytes, unless $GOGC is set. The view is built from
// many short-lived values (and level 1, without a store, holds an output
// about the input's size); with the default of 100 the heap grew to twice
// the live data: 300 MB of JSON peaked at 978 MB, with 25 at 737 MB for
// the same CPU time (one run, when level 1 also ran to its end at level
// 2). Now that level 1 stops early at level 2, 25 still halves the peak
// of a 120 MB text log (160 MB against 270 MB) for about 18% more CPU.
const largeInputGC = 25

// tuneGC lowers the collector's target for a large input.
func tuneGC(size int) {
	if size >= spoolThreshold && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(largeInputGC)
	}
}

// tuneQueryGC lowers the collector's target (as tuneGC does) for a query
// on a large artifact: the artifact's bytes stay live while a streamed jq
// decodes record after record into garbage, and with the default the heap
// grew to about twice them (a streamed jq on 100 MB peaked at 278 MB, with
// 25 at 190 MB for a quarter more CPU, one run).
//
// A mapped artifact (canMap, a local store) is not in the heap: the
// default target keeps the heap small without the extra collections
// (with 25, a streamed jq on 100 MB took twice the CPU for 5% less peak
// memory, one run).
func tuneQueryGC(ctx context.Context, eng *host.Engine, ref string) {
	if canMap {
		if _, ok := eng.Store().(*artifact.DirStore); ok {
			return
		}
	}
	r, err := artifact.ParseRef(ref)
	if err != nil {
		return
	}
	if st, ok := eng.Store().(query.Stater); ok {
		if m, err := st.Stat(ctx, r.Handle); err == nil {
			tuneGC(int(min(m.Bytes, int64(math.MaxInt))))
		}
	}
}
