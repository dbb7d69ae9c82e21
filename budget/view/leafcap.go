package view

// The index's records, kept by the profile's pass.
//
// The index (index.go) lists up to maxIndexRecords records (and
// maxIndexBytes of their text) by a few fields, chosen once the profile
// is done: it read those records again (eachRecordLeaves), a walk of up
// to 1 MB of text that cost the generated records 20M instructions of
// their view. The profile's pass reads every scalar value of those
// records already, in document order: it keeps them (FedColl.ScalarKept,
// which level 1's fed walk calls in the records kept, FedColl.ScalarRecord
// and Profile.value), as slices of the input with their fields,
// and the index takes the leaves of its fields from what was kept
// (replayLeaves), the same leaves in the same order as the walk would
// give (TestIndexLeavesKept). What is kept is bounded by fixed caps
// (maxCapLeaves leaves, the index's own caps on records and bytes), not
// by the input; past them, or for records the walk would read in a way
// of its own (a list keyed "0".."n-1", a list of name/value pairs, a
// map's records), nothing is used and the index reads its records again
// as before. A collection with no index pays for the keeping of its first
// records' leaves (the fed walk's records after them are walked by a
// walk with no test for it: walkValue[capWalk] and walkValue[fedWalk]).

// noLeafReplay makes the index read its records again, as before the
// profile kept them (TestIndexLeavesKept compares the two).
var noLeafReplay = false

// leafReplays counts the indexes made from the leaves kept (tests).
var leafReplays int

// maxCapLeaves bounds the leaves kept for the index (16 bytes of
// pointers and 16 of slice each: 2 MB at most), kept in blocks of
// capBlock.
const (
	maxCapLeaves = 1 << 16
	capBlock     = 1 << 12
)

// leafCap is what the profile's pass keeps of the first records for the
// index.
type leafCap struct {
	// failed: what is kept cannot stand for the records (read them
	// again); full: the index's caps were reached (it reads no
	// further).
	failed, full bool
	// blocks are the leaves kept, in order; cur is the last block
	// (appended to while it has room: add).
	blocks [][]capLeaf
	cur    []capLeaf
	n      int // leaves in blocks before cur
	recs   []capRec
	// read is the bytes of the records kept, as the index counts them.
	read int
	// data is the input the records are slices of.
	data []byte
}

// capLeaf is a scalar value of a record kept: its field and its text.
type capLeaf struct {
	f *Field
	v []byte
}

// capRec is a record kept: how many leaves it has and its text.
type capRec struct {
	n   int
	raw []byte
}

// startCapture makes the profile keep the leaves of its first records
// for the index: records that are slices of data (not a map's).
func (p *Profile) startCapture(data []byte) {
	if p.Map || len(data) == 0 {
		return
	}
	p.lc = &leafCap{data: data}
	p.capLive = true
}

// capBegin starts record i (beginRecord, while capLive) and reports
// whether its leaves are kept.
func (p *Profile) capBegin(i int) bool {
	c := p.lc
	if i != len(c.recs) {
		c.fail() // (records out of order: cannot happen)
	}
	if i >= maxIndexRecords {
		c.full = true
	}
	if c.failed || c.full {
		p.capLive = false
		return false
	}
	c.recs = append(c.recs, capRec{n: c.leaves()})
	return true
}

// leaves returns the number of leaves kept.
func (c *leafCap) leaves() int { return c.n + len(c.cur) }

// add keeps the scalar value raw of f in the current record (while
// capOn).
func (c *leafCap) add(f *Field, raw []byte) {
	if len(c.cur) == cap(c.cur) {
		c.grow()
	}
	c.cur = append(c.cur, capLeaf{f, raw})
}

// grow makes room in cur for add: a new block, or past maxCapLeaves
// nothing more is kept (failed: cur is then emptied each time, and
// dropped). (Not inlined: add is, in the callers.)
//
//go:noinline
func (c *leafCap) grow() {
	if c.failed || c.leaves() >= maxCapLeaves {
		if !c.failed {
			c.fail()
		}
		if c.cur == nil {
			c.cur = make([]capLeaf, 0, capBlock)
		}
		c.cur = c.cur[:0]
		return
	}
	if c.cur != nil {
		c.blocks = append(c.blocks, c.cur)
		c.n += len(c.cur)
	}
	c.cur = make([]capLeaf, 0, capBlock)
}

// fail drops what was kept: the index reads its records again.
func (c *leafCap) fail() {
	c.failed = true
	c.blocks, c.cur, c.recs = nil, nil, nil
}

// capEnd ends the record kept, whose whole text is raw (before
// endRecord, while capOn).
func (p *Profile) capEnd(raw []byte) {
	p.capOn = false
	c := p.lc
	if c.failed || !within(c.data, raw) {
		c.fail()
		p.capLive = false
		return
	}
	i := len(c.recs) - 1
	c.recs[i].n = c.leaves() - c.recs[i].n
	c.recs[i].raw = raw
	if c.read+len(raw) > maxIndexBytes && i >= smallIndex {
		c.full = true // the index stops at this record (index.go)
		p.capLive = false
	}
	c.read += len(raw)
}

// replayLeaves is eachRecordLeaves from the leaves kept by the profile's
// pass; ok is false when they cannot stand for the records (the caller
// reads them again).
func (k *coll) replayLeaves(mask []bool, begin func(i int) bool, leaf func(*Field, []byte), end func(i int, raw []byte) error) (ok bool, err error) {
	p := k.p
	c := p.lc
	if c == nil || c.failed || p.capOn || mask == nil || len(c.recs) < p.Records && !c.full || len(c.recs) > p.Records ||
		!sameBytes(c.data, k.in.Data) || !within(k.in.Data, k.c.Text) {
		return false, nil
	}
	// A list keyed "0".."n-1" or a list of pairs is read by the walk in
	// a way of its own (Profile.walk): not from what was kept.
	if p.root.indexed || p.root.pairs {
		return false, nil
	}
	for _, f := range p.Fields {
		if f.indexed || f.pairs || f.whole && mask[f.first+1] {
			// (the kept leaves are scalars: a field read whole
			// is read again)
			return false, nil
		}
	}
	if noLeafReplay {
		return false, nil
	}
	leafReplays++
	blocks := append(c.blocks, c.cur)
	b, j := 0, 0 // the next leaf: blocks[b][j]
	for i, r := range c.recs {
		if !begin(i) {
			return true, nil
		}
		for range r.n {
			for j == len(blocks[b]) {
				b, j = b+1, 0
			}
			if l := &blocks[b][j]; mask[l.f.first+1] {
				leaf(l.f, l.v)
			}
			j++
		}
		if err := end(i, r.raw); err != nil {
			if err == errStop {
				return true, nil
			}
			return true, err
		}
	}
	if len(c.recs) < p.Records {
		begin(len(c.recs)) // (past maxIndexRecords: false)
	}
	return true, nil
}

// sameBytes reports whether a and b are the same slice.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
