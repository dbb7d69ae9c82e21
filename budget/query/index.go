package query

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"unsafe"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// The on-disk index of an artifact.
//
// Detecting an artifact's shape and splitting its collections into
// records costs two passes over its bytes (about 0.25 s of CPU on 100 MB),
// which every query in a new process (each compact artifact command)
// paid again. The first query of an artifact of at least indexMinBytes
// therefore writes what it derived, the shape (format, media type,
// collections with their exact counts) and the byte span of every record
// of every collection, as a sidecar of the artifact in its store
// (SidecarStore); later queries read it instead of re-parsing. The
// artifact's bytes are still read and verified against their digest on
// every query: the index only replaces the parse. It names the digest it
// was built from and ends with a SHA-256 of itself; one that does not
// match, or whose spans do not fit the artifact, is ignored and rebuilt.
//
// Layout: "CIX1", the artifact's SHA-256 (32 bytes), a uvarint length
// and that many bytes of JSON header (indexHeader), then for each
// collection of the header in order its records' spans as uvarint pairs
// (gap from the end of the previous span, length), then the SHA-256 of
// everything before it.

// SidecarStore is implemented by stores that keep small derived files
// beside an artifact (artifact.DirStore does).
type SidecarStore interface {
	ReadSidecar(sum, name string) ([]byte, error)
	WriteSidecar(sum, name string, data []byte) error
}

// indexMinBytes is the artifact size from which an index is kept.
const indexMinBytes = 1 << 20

const indexMagic = "CIX1"

type indexHeader struct {
	Format      string               `json:"format"`
	ContentType string               `json:"content_type"`
	Collections []schemas.Collection `json:"collections"`
	Kinds       []string             `json:"kinds"` // of each collection's records
}

// encodeIndex builds the index of e from its shape and the records of
// all its collections.
func encodeIndex(e *entry, shape budget.Shape, recs []*records) ([]byte, error) {
	sum, err := hex.DecodeString(e.sum)
	if err != nil || len(sum) != sha256.Size {
		return nil, fmt.Errorf("index: digest %q", e.sum)
	}
	h := indexHeader{Format: shape.Format, ContentType: shape.ContentType, Collections: shape.Collections}
	for _, r := range recs {
		h.Kinds = append(h.Kinds, r.kind)
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	b := append([]byte(indexMagic), sum...)
	b = binary.AppendUvarint(b, uint64(len(hb)))
	b = append(b, hb...)
	for _, r := range recs {
		prev := 0
		for _, raw := range r.raw {
			start, ok := spanOf(e.data, raw, prev)
			if !ok || start < prev {
				// A record built rather than cut from the bytes (a
				// member of a map collection): no span to keep.
				return nil, fmt.Errorf("index: record of %s is not a span of the artifact", r.path)
			}
			b = binary.AppendUvarint(b, uint64(start-prev))
			b = binary.AppendUvarint(b, uint64(len(raw)))
			prev = start + len(raw)
		}
	}
	tail := sha256.Sum256(b)
	return append(b, tail[:]...), nil
}

var errBadIndex = errors.New("index does not match the artifact")

// decodeIndex reads an index of e written by encodeIndex, checking that
// it belongs to e's bytes.
func decodeIndex(e *entry, b []byte) (budget.Shape, []*records, error) {
	n := len(indexMagic) + sha256.Size
	if len(b) < n+sha256.Size || string(b[:len(indexMagic)]) != indexMagic {
		return budget.Shape{}, nil, errBadIndex
	}
	body, tail := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if sum := sha256.Sum256(body); string(sum[:]) != string(tail) || hex.EncodeToString(b[len(indexMagic):n]) != e.sum {
		return budget.Shape{}, nil, errBadIndex
	}
	p := body[n:]
	hl, k := binary.Uvarint(p)
	if k <= 0 || uint64(len(p)-k) < hl {
		return budget.Shape{}, nil, errBadIndex
	}
	var h indexHeader
	if err := json.Unmarshal(p[k:k+int(hl)], &h); err != nil || len(h.Kinds) != len(h.Collections) {
		return budget.Shape{}, nil, errBadIndex
	}
	p = p[k+int(hl):]
	var recs []*records
	for i, c := range h.Collections {
		if c.Count < 0 || c.Count > len(p) {
			return budget.Shape{}, nil, errBadIndex
		}
		r := &records{path: c.Path, kind: h.Kinds[i], raw: make([][]byte, 0, c.Count)}
		prev := 0
		for range c.Count {
			gap, k1 := binary.Uvarint(p)
			if k1 <= 0 {
				return budget.Shape{}, nil, errBadIndex
			}
			l, k2 := binary.Uvarint(p[k1:])
			if k2 <= 0 {
				return budget.Shape{}, nil, errBadIndex
			}
			p = p[k1+k2:]
			start := uint64(prev) + gap
			if start > uint64(len(e.data)) || l > uint64(len(e.data))-start {
				return budget.Shape{}, nil, errBadIndex
			}
			r.raw = append(r.raw, e.data[start:start+l:start+l])
			prev = int(start + l)
		}
		recs = append(recs, r)
	}
	if len(p) != 0 {
		return budget.Shape{}, nil, errBadIndex
	}
	return budget.Shape{Format: h.Format, ContentType: h.ContentType, Collections: h.Collections}, recs, nil
}

// useIndex gives a freshly loaded entry its shape and records from the
// store's index, or builds the index and writes it when there is none
// (or a stale one). Failures only cost the parse the index would save.
func (q *Querier) useIndex(e *entry) {
	ss, ok := q.store.(SidecarStore)
	if !ok || len(e.data) < indexMinBytes {
		return
	}
	if b, err := ss.ReadSidecar(e.sum, "idx"); err == nil {
		if shape, recs, err := decodeIndex(e, b); err == nil {
			e.mu.Lock()
			if e.shape != nil || e.shapeErr != nil {
				e.mu.Unlock()
				return // another query parsed it meanwhile
			}
			e.shape, e.indexed = &shape, true
			e.records = map[string]*records{}
			var extra int64
			for _, r := range recs {
				e.records[r.path] = r
				extra += 24 * int64(len(r.raw))
			}
			e.grow(extra)
			e.mu.Unlock()
			return
		}
	}
	shape, err := e.getShape()
	if err != nil {
		return
	}
	var recs []*records
	for _, c := range shape.Collections {
		r, err := e.getRecords(c.Path)
		if err != nil {
			return
		}
		recs = append(recs, r)
	}
	if b, err := encodeIndex(e, shape, recs); err == nil {
		_ = ss.WriteSidecar(e.sum, "idx", b)
	}
}

// spanOf returns the offset of raw in data when raw is a sub-slice of
// data (an empty raw is placed at prev).
func spanOf(data, raw []byte, prev int) (int, bool) {
	if len(raw) == 0 {
		return prev, true
	}
	if len(data) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(raw)))
	if p < base || p-base > uintptr(len(data)) || uintptr(len(raw)) > uintptr(len(data))-(p-base) {
		return 0, false
	}
	return int(p - base), true
}
