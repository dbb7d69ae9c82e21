package kernel

import (
	"encoding/binary"
	"errors"
	"testing"
)

// FuzzHostABI drives the extism:host/env functions from the host side
// with arbitrary calls: each 17-byte step picks a function and two
// arguments (wild offsets and lengths included). Whatever the sequence,
// a function answers or traps with a *Trap (never another panic, never a
// read or write outside the arena), the arena stays within its limit,
// every active block stays inside the allocated region without overlap,
// and a value stored in a block reads back.
func FuzzHostABI(f *testing.F) {
	step := func(fn byte, x, y uint64) []byte {
		b := []byte{fn}
		b = binary.LittleEndian.AppendUint64(b, x)
		return binary.LittleEndian.AppendUint64(b, y)
	}
	names := HostFuncNames()
	idx := func(name string) byte {
		for i, n := range names {
			if n == name {
				return byte(i)
			}
		}
		panic(name)
	}
	f.Add(append(step(idx("alloc"), 40, 0), step(idx("store_u64"), Base, 7)...))
	f.Add(append(append(step(idx("alloc"), 300, 0), step(idx("free"), Base, 0)...), step(idx("alloc"), 8, 0)...))
	f.Add(append(step(idx("alloc"), 9, 0), step(idx("output_set"), Base, 9)...))
	f.Add(append(step(idx("alloc"), 9, 0), step(idx("load_u64"), Base+8, 0)...))
	f.Add(step(idx("input_load_u64"), 1<<63, 0))
	f.Add(append(step(idx("alloc"), 1<<40, 0), step(idx("store_u8"), 1<<40, 1)...))
	f.Fuzz(func(t *testing.T, prog []byte) {
		const limit = 1 << 16
		inst := NewTestInstance(limit, nil)
		for len(prog) >= 17 {
			name := names[int(prog[0])%len(names)]
			x := binary.LittleEndian.Uint64(prog[1:])
			y := binary.LittleEndian.Uint64(prog[9:])
			prog = prog[17:]
			stack := []uint64{x, y}
			if p := callHost(inst, name, stack); p != nil {
				var tr *Trap
				if err, ok := p.(error); !ok || !errors.As(err, &tr) {
					t.Fatalf("%s(%d, %d) panicked with %T %v, want *Trap", name, x, y, p, p)
				}
				continue
			}
			if name == "alloc" && stack[0] != 0 {
				if inst.arena.Length(stack[0]) != x {
					t.Fatalf("alloc(%d) = %d with length %d", x, stack[0], inst.arena.Length(stack[0]))
				}
				// The last word of a new block reads back what is stored.
				if x >= 8 {
					w := stack[0] + x - 8
					if !inst.arena.StoreU64(w, x^0xa5a5) {
						t.Fatalf("store in a new block at %d failed", w)
					}
					if v, ok := inst.arena.LoadU64(w); !ok || v != x^0xa5a5 {
						t.Fatalf("load back at %d = %d, %v", w, v, ok)
					}
				}
			}
			a := inst.arena
			if a.Size() > limit {
				t.Fatalf("arena grew to %d bytes, limit %d", a.Size(), limit)
			}
			end := uint64(Base)
			for _, b := range a.blocks {
				if b.off < end || b.off+b.size > a.Size() || (!b.free && b.used > b.size) {
					t.Fatalf("block %+v overlaps or leaves the region (size %d)", b, a.Size())
				}
				end = b.off + b.size
			}
		}
	})
}
