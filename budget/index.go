package budget

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"unsafe"

	"github.com/toolcompact/compact/schemas"
)

// The on-disk index of an artifact: its shape and the byte span of every
// record of every collection, so that a query in a new process reads the
// index instead of parsing the artifact (budget/query reads it; see
// docs/artifacts.md). Level 2 writes it when it stores an original
// (IndexStore), from the shape it already detected; a query writes it for
// an artifact that has none.
//
// Layout: IndexMagic, the artifact's SHA-256 (32 bytes), a uvarint length
// and that many bytes of JSON header (IndexHeader), then for each
// collection of the header in order its records' spans as uvarint pairs
// (gap from the end of the previous span, length), then the SHA-256 of
// everything before it.

// IndexMagic starts every index.
const IndexMagic = "CIX1"

// IndexMinBytes is the artifact size from which an index is kept: a
// smaller artifact parses faster than its index is read.
const IndexMinBytes = 1 << 20

// IndexSidecar is the name of the index among an artifact's sidecars.
const IndexSidecar = "idx"

// IndexHeader is the JSON header of an index.
type IndexHeader struct {
	Format      string               `json:"format"`
	ContentType string               `json:"content_type"`
	Collections []schemas.Collection `json:"collections"`
	Kinds       []string             `json:"kinds"` // of each collection's records
}

// IndexStore is a Store that keeps small derived files beside an
// artifact (artifact.DirStore does): level 2 writes the artifact's index
// there when it stores a large original.
type IndexStore interface {
	Store
	WriteSidecar(sum, name string, data []byte) error
}

// EncodeIndex builds the index of data (whose SHA-256 is sum, in hex)
// for shape, which must be DetectShape(data, nil): what a query reads.
// It walks every collection once. A collection whose records are not
// spans of data (a map's members are rebuilt as {"key": value}) cannot be
// indexed: EncodeIndex then fails.
func EncodeIndex(sum string, data []byte, shape Shape) ([]byte, error) {
	return EncodeIndexOf(sum, data, shape, func(ci int, fn func(raw []byte) error) error {
		return EachRecord(data, shape, shape.Collections[ci].Path, func(_ int, raw []byte) error { return fn(raw) })
	})
}

// EncodeIndexOf is EncodeIndex with the records of collection ci given by
// each (in order, as sub-slices of data).
func EncodeIndexOf(sum string, data []byte, shape Shape, each func(ci int, fn func(raw []byte) error) error) ([]byte, error) {
	d, err := hex.DecodeString(sum)
	if err != nil || len(d) != sha256.Size {
		return nil, fmt.Errorf("index: digest %q", sum)
	}
	h := IndexHeader{Format: shape.Format, ContentType: shape.ContentType, Collections: shape.Collections}
	for _, c := range shape.Collections {
		h.Kinds = append(h.Kinds, c.Kind)
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	n := 0
	for _, c := range shape.Collections {
		n += c.Count
	}
	b := make([]byte, 0, len(IndexMagic)+len(d)+binary.MaxVarintLen64+len(hb)+4*n+sha256.Size)
	b = append(append(b, IndexMagic...), d...)
	b = binary.AppendUvarint(b, uint64(len(hb)))
	b = append(b, hb...)
	for ci, c := range shape.Collections {
		prev, k := 0, 0
		err := each(ci, func(raw []byte) error {
			start, ok := SpanOf(data, raw, prev)
			if !ok || start < prev {
				return fmt.Errorf("index: record %d of %s is not a span of the artifact", k, c.Path)
			}
			b = binary.AppendUvarint(b, uint64(start-prev))
			b = binary.AppendUvarint(b, uint64(len(raw)))
			prev = start + len(raw)
			k++
			return nil
		})
		if err != nil {
			return nil, err
		}
		if k != c.Count {
			return nil, fmt.Errorf("index: %s has %d records, its count is %d", c.Path, k, c.Count)
		}
	}
	tail := sha256.Sum256(b)
	return append(b, tail[:]...), nil
}

// SpanOf returns the offset of raw in data when raw is a sub-slice of
// data (an empty raw is placed at prev).
func SpanOf(data, raw []byte, prev int) (int, bool) {
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

// writeIndex writes the index of the original level 2 just stored (its
// digest sum) when the store keeps sidecars and the original is large
// enough; shape is the pipeline's. It runs on the goroutine that stored
// the original, beside the view. A failure costs only the parse the index
// would have saved a query.
func (p *Pipeline) writeIndex(in Input, shape Shape, sum string) {
	ss, ok := p.store.(IndexStore)
	if !ok || len(in.Data) < IndexMinBytes || sum == "" {
		return
	}
	// The index describes what a query reads: the shape detected with
	// no registry paths, with the content type stored (a text declared
	// as text is lines whatever bytes it holds; budget/query).
	if len(in.Rules.Records) > 0 {
		var err error
		if shape, err = detectedShape(in, shape); err != nil {
			return
		}
	}
	if b, err := EncodeIndex(sum, in.Data, shape); err == nil {
		_ = ss.WriteSidecar(sum, IndexSidecar, b)
	}
}

// HashedStore is a Store that stores in-memory bytes whose SHA-256 the
// caller already computed without hashing them again (artifact.DirStore).
// Level 2 hashes the original itself, so that it can make its view with
// the handle the store will issue while the bytes are written and synced.
type HashedStore interface {
	Store
	PutHashed(ctx context.Context, data []byte, sum string, m Meta) (Handle, Meta, error)
}

// predictedHandleLen is the length of the handle a store issues for a
// digest unless another digest already holds that prefix (the minimum
// handle length of budget/artifact): level 2 makes its view with it while
// the original is stored, and again with the issued handle in the rare
// case they differ.
const predictedHandleLen = 12

// originalDigest returns the SHA-256 (hex) of the original when level 2
// can make its view before the original is stored: the spooled input's
// digest, else a hash of in.Data when the store takes it (HashedStore);
// "" otherwise.
func (p *Pipeline) originalDigest(in Input) string {
	if sp, ok := in.Spooled.(interface{ SHA256() string }); ok {
		return sp.SHA256()
	}
	if _, ok := p.store.(HashedStore); ok {
		sum := sha256.Sum256(in.Data)
		return hex.EncodeToString(sum[:])
	}
	return ""
}
