package kernel

import (
	"encoding/binary"
	"fmt"
	"sort"
)

// Base is the first offset the arena hands out. Offset 0 means "none" in
// the Extism ABI (a failed allocation, no error, no value), so the
// allocator never returns it; the bytes below Base belong to no block.
const Base = 16

// splitAt is the excess over a request above which a reused free block is
// split in two, as the Extism kernel does (128 bytes): the request gets
// the block's tail, the rest stays free.
const splitAt = 128

// Arena is the kernel memory of one instance: the blocks a plugin
// allocates with alloc, the input, the output and the error message. It
// lives on the Go side (the Extism kernel keeps it in a WebAssembly
// module of its own), grows on demand and never beyond its limit, so a
// plugin cannot make the host allocate without bound.
//
// Every method checks its offsets against the allocated region and
// reports out-of-range access with ok == false instead of reading or
// writing outside it; the host functions turn that into a trap.
//
// An Arena is not safe for concurrent use (an instance serves one call at
// a time).
type Arena struct {
	mem    []byte  // the allocated region is mem[:len(mem)]; len(mem) >= Base once used
	limit  uint64  // the most bytes mem may hold
	blocks []block // sorted by offset, contiguous from Base to len(mem)

	inputOff, inputLen   uint64
	outputOff, outputLen uint64
	errOff               uint64

	// Failed is the size of the last allocation refused for the limit
	// (0 when none was), for the host's log.
	Failed uint64
}

type block struct {
	off, size, used uint64
	free            bool
}

// NewArena returns an empty arena that may grow to limit bytes.
func NewArena(limit uint64) *Arena {
	return &Arena{limit: limit}
}

// Limit is the most bytes the arena may hold.
func (a *Arena) Limit() uint64 { return a.limit }

// Size is the number of bytes allocated now, Base included (the kernel's
// memory_bytes).
func (a *Arena) Size() uint64 { return uint64(len(a.mem)) }

// Reset frees every block and forgets the input, output and error, as the
// kernel's reset does before each call. Memory too large to keep idle is
// given back to the Go heap.
func (a *Arena) Reset() {
	if cap(a.blocks) > keepIdleBlocks {
		a.blocks = nil
	}
	a.blocks = a.blocks[:0]
	if cap(a.mem) > keepIdle {
		a.mem = nil
	}
	if len(a.mem) > Base {
		a.mem = a.mem[:Base]
	}
	a.inputOff, a.inputLen = 0, 0
	a.outputOff, a.outputLen = 0, 0
	a.errOff = 0
	a.Failed = 0
}

// keepIdle is the largest arena kept between calls (a 1 MB input needs
// about 2 MiB).
const keepIdle = 8 << 20

// keepIdleBlocks is the most block records kept between calls.
const keepIdleBlocks = 4096

// blockCost is the share of the limit a block's record takes: the
// records live on the Go heap beside the arena's bytes (32 bytes each), so
// without a bound a plugin allocating one byte at a time would make the
// host keep about four times the limit. With at most limit/blockCost
// records, the bookkeeping stays under the limit (append's spare capacity
// included).
const blockCost = 64

// maxBlocks is the most blocks the arena keeps track of.
func (a *Arena) maxBlocks() int { return int(min(a.limit/blockCost, 1<<40)) }

func align8(n uint64) uint64 { return (n + 7) &^ 7 }

// Alloc allocates a block of n bytes and returns its offset: 0 when n is
// 0 or when the block would take the arena past its limit, or past
// limit/64 blocks (the kernel's "failed allocation"; Failed records n).
// The block's bytes are zero. A free block is split only while the arena
// has fewer than limit/64 blocks.
func (a *Arena) Alloc(n uint64) uint64 {
	p, size := a.alloc(n)
	clear(a.mem[p : p+size])
	return p
}

// alloc is Alloc without zeroing the block; it also returns the block's
// size (its length rounded up, or more for a reused block). The bytes of
// an arena are reused from call to call, so callers must overwrite or
// clear all size bytes: a plugin must never see a previous call's data.
func (a *Arena) alloc(n uint64) (p, size uint64) {
	if n == 0 {
		return 0, 0
	}
	for i := range a.blocks {
		b := &a.blocks[i]
		if !b.free || b.size < n {
			continue
		}
		if need := align8(n); b.size-need >= splitAt && len(a.blocks) < a.maxBlocks() {
			// Split as the kernel does: the free block keeps its head,
			// the new block is its tail.
			tail := block{off: b.off + b.size - need, size: need}
			b.size -= need
			a.blocks = append(a.blocks, block{})
			copy(a.blocks[i+2:], a.blocks[i+1:])
			a.blocks[i+1] = tail
			b = &a.blocks[i+1]
		}
		b.used, b.free = n, false
		return b.off, b.size
	}
	top := uint64(len(a.mem))
	if top < Base {
		top = Base
	}
	if n > a.limit || top > a.limit || align8(n) > a.limit-top || len(a.blocks) >= a.maxBlocks() {
		a.Failed = n
		return 0, 0
	}
	need := align8(n)
	end := top + need
	if uint64(cap(a.mem)) < end {
		c := max(end, 2*uint64(cap(a.mem)), 64<<10)
		c = min(c, a.limit)
		grown := make([]byte, top, c)
		copy(grown, a.mem)
		a.mem = grown
	}
	a.mem = a.mem[:end]
	a.blocks = append(a.blocks, block{off: top, size: need, used: n})
	return top, need
}

// find returns the index of the active block that starts at p, or -1.
func (a *Arena) find(p uint64) int {
	i := sort.Search(len(a.blocks), func(i int) bool { return a.blocks[i].off >= p })
	if i < len(a.blocks) && a.blocks[i].off == p && !a.blocks[i].free {
		return i
	}
	return -1
}

// Free frees the block at p for reuse by a later Alloc. An offset that
// is not an active block is ignored, as by the kernel; freeing the input
// block empties the input. The bytes stay in the arena (the kernel does
// not shrink its memory either), so an output set on a block that is
// later freed is still read back whole.
func (a *Arena) Free(p uint64) {
	i := a.find(p)
	if i < 0 {
		return
	}
	a.blocks[i].free = true
	if p == a.inputOff {
		a.inputLen = 0
	}
}

// Length is the length the block at p was allocated with, or 0 when p is
// not an active block.
func (a *Arena) Length(p uint64) uint64 {
	if i := a.find(p); i >= 0 {
		return a.blocks[i].used
	}
	return 0
}

// in reports whether [p, p+n) lies in the allocated region.
func (a *Arena) in(p, n uint64) bool {
	top := uint64(len(a.mem))
	return p >= Base && p <= top && n <= top-p
}

// Read returns a view of the n bytes at p, valid until the next Alloc or
// Reset, and false when they are not all in the allocated region.
func (a *Arena) Read(p, n uint64) ([]byte, bool) {
	if n == 0 {
		return nil, true
	}
	if !a.in(p, n) {
		return nil, false
	}
	return a.mem[p : p+n : p+n], true
}

// Bytes returns a view of the block at p (empty when p is no block).
func (a *Arena) Bytes(p uint64) []byte {
	b, _ := a.Read(p, a.Length(p))
	return b
}

// Write copies b into a new block and returns its offset (0 when b is
// empty or the arena is full).
func (a *Arena) Write(b []byte) uint64 {
	p, size := a.alloc(uint64(len(b)))
	if p != 0 {
		n := uint64(copy(a.mem[p:], b))
		clear(a.mem[p+n : p+size])
	}
	return p
}

// LoadU8 reads the byte at p.
func (a *Arena) LoadU8(p uint64) (byte, bool) {
	if !a.in(p, 1) {
		return 0, false
	}
	return a.mem[p], true
}

// LoadU64 reads the little-endian word at p.
func (a *Arena) LoadU64(p uint64) (uint64, bool) {
	if !a.in(p, 8) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(a.mem[p:]), true
}

// StoreU8 writes the byte at p.
func (a *Arena) StoreU8(p uint64, v byte) bool {
	if !a.in(p, 1) {
		return false
	}
	a.mem[p] = v
	return true
}

// StoreU64 writes v little-endian at p.
func (a *Arena) StoreU64(p, v uint64) bool {
	if !a.in(p, 8) {
		return false
	}
	binary.LittleEndian.PutUint64(a.mem[p:], v)
	return true
}

// SetInput makes the n bytes at p the input. An empty input may have
// offset 0.
func (a *Arena) SetInput(p, n uint64) bool {
	if !(n == 0 && p == 0) && !a.in(p, n) {
		return false
	}
	a.inputOff, a.inputLen = p, n
	return true
}

// Input returns the input's offset and length.
func (a *Arena) Input() (off, n uint64) { return a.inputOff, a.inputLen }

// InputLoadU8 reads byte i of the input; past its end it reads 0, as the
// kernel does.
func (a *Arena) InputLoadU8(i uint64) byte {
	if i >= a.inputLen {
		return 0
	}
	return a.mem[a.inputOff+i]
}

// InputLoadU64 reads the little-endian word at byte i of the input. Like
// extism/go-sdk it reads kernel memory at the input's offset plus i, which
// must lie in the allocated region.
func (a *Arena) InputLoadU64(i uint64) (uint64, bool) {
	if i > ^uint64(0)-a.inputOff {
		return 0, false
	}
	return a.LoadU64(a.inputOff + i)
}

// SetOutput makes the n bytes at p the output. An empty output may have
// offset 0.
func (a *Arena) SetOutput(p, n uint64) bool {
	if !(n == 0 && p == 0) && !a.in(p, n) {
		return false
	}
	a.outputOff, a.outputLen = p, n
	return true
}

// Output returns the output's offset and length.
func (a *Arena) Output() (off, n uint64) { return a.outputOff, a.outputLen }

// OutputBytes returns a copy of the output.
func (a *Arena) OutputBytes() []byte {
	b, _ := a.Read(a.outputOff, a.outputLen) // set in range; the region never shrinks before Reset
	return append([]byte{}, b...)
}

// SetError records the error message block at p (0 clears it).
func (a *Arena) SetError(p uint64) bool {
	if p != 0 && !a.in(p, 1) {
		return false
	}
	a.errOff = p
	return true
}

// Error returns the error message block's offset (0 when none).
func (a *Arena) Error() uint64 { return a.errOff }

// ErrorMessage returns the error message, "" when none is set or its
// offset is not a block.
func (a *Arena) ErrorMessage() string {
	if a.errOff == 0 {
		return ""
	}
	return string(a.Bytes(a.errOff))
}

// String describes the arena for error messages.
func (a *Arena) String() string {
	return fmt.Sprintf("kernel memory of %d bytes (%d blocks, limit %d)", len(a.mem), len(a.blocks), a.limit)
}
