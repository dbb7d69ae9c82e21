package query

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"

	"github.com/toolcompact/compact/budget"
)

// The on-disk index of an artifact (format and encoder:
// budget.EncodeIndex).
//
// Detecting an artifact's shape and splitting its collections into
// records costs two passes over its bytes (about 0.25 s of CPU on 100 MB),
// which every query in a new process (each compact artifact command)
// would pay again. Level 2 writes the index when it stores an original of
// at least budget.IndexMinBytes; the first query of an artifact without
// one (stored by an older version, or its index damaged) writes it. Later
// queries read it instead of re-parsing. The artifact's bytes are still
// verified against their digest on every query: the index only replaces
// the parse. It names the digest it was built from and ends with a
// SHA-256 of itself; one that does not match, or whose spans do not fit
// the artifact, is ignored and rebuilt.

// SidecarStore is implemented by stores that keep small derived files
// beside an artifact (artifact.DirStore does).
type SidecarStore interface {
	ReadSidecar(sum, name string) ([]byte, error)
	WriteSidecar(sum, name string, data []byte) error
}

// encodeIndex builds the index of e from its shape and the records of
// all its collections.
func encodeIndex(e *entry, shape budget.Shape, recs []*records) ([]byte, error) {
	return budget.EncodeIndexOf(e.sum, e.data, shape, func(ci int, fn func([]byte) error) error {
		for _, raw := range recs[ci].raw {
			if err := fn(raw); err != nil {
				return err
			}
		}
		return nil
	})
}

var errBadIndex = errors.New("index does not match the artifact")

// decodeIndex reads an index of e written by encodeIndex, checking that
// it belongs to e's bytes.
func decodeIndex(e *entry, b []byte) (budget.Shape, []*records, error) {
	n := len(budget.IndexMagic) + sha256.Size
	if len(b) < n+sha256.Size || string(b[:len(budget.IndexMagic)]) != budget.IndexMagic {
		return budget.Shape{}, nil, errBadIndex
	}
	body, tail := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if sum := sha256.Sum256(body); string(sum[:]) != string(tail) || hex.EncodeToString(b[len(budget.IndexMagic):n]) != e.sum {
		return budget.Shape{}, nil, errBadIndex
	}
	p := body[n:]
	hl, k := binary.Uvarint(p)
	if k <= 0 || uint64(len(p)-k) < hl {
		return budget.Shape{}, nil, errBadIndex
	}
	var h budget.IndexHeader
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
	if !ok || len(e.data) < budget.IndexMinBytes {
		return
	}
	if b, err := ss.ReadSidecar(e.sum, budget.IndexSidecar); err == nil {
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
		_ = ss.WriteSidecar(e.sum, budget.IndexSidecar, b)
	}
}
