package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"unsafe"
)

func TestArenaAlloc(t *testing.T) {
	a := NewArena(1 << 20)
	if p := a.Alloc(0); p != 0 {
		t.Fatalf("alloc(0) = %d, want 0", p)
	}
	p1, p2, p3 := a.Alloc(5), a.Alloc(300), a.Alloc(8)
	for _, c := range []struct{ p, n uint64 }{{p1, 5}, {p2, 300}, {p3, 8}} {
		if c.p < Base || c.p%8 != 0 {
			t.Errorf("alloc(%d) = %d: want a non-zero, 8-aligned offset ≥ %d", c.n, c.p, Base)
		}
		if got := a.Length(c.p); got != c.n {
			t.Errorf("length(%d) = %d, want %d", c.p, got, c.n)
		}
	}
	if !(p1+8 <= p2 && p2+304 <= p3) {
		t.Errorf("blocks overlap: %d, %d, %d", p1, p2, p3)
	}
	if a.Length(p1+1) != 0 || a.Length(0) != 0 || a.Length(math.MaxUint64) != 0 {
		t.Error("length of a non-block offset is not 0")
	}
	// A freed block is reused, split when much larger than the request,
	// and its bytes are zero again.
	if !a.StoreU64(p2, 0xdeadbeef) {
		t.Fatal("store in a block failed")
	}
	a.Free(p2)
	if a.Length(p2) != 0 {
		t.Error("length of a freed block is not 0")
	}
	q := a.Alloc(16) // split: the tail of the freed block, as in the kernel
	if q != p2+304-16 {
		t.Errorf("alloc after free = %d, want the tail of the freed block at %d", q, p2+304-16)
	}
	if v, _ := a.LoadU64(q); v != 0 {
		t.Errorf("reused block holds %#x, want zero", v)
	}
	r := a.Alloc(200) // fits the free head (288 bytes), too little excess to split
	if r != p2 || a.Length(r) != 200 {
		t.Errorf("alloc(200) = %d (length %d), want the free head at %d", r, a.Length(r), p2)
	}
	if s := a.Alloc(8); s != p3+8 {
		t.Errorf("alloc(8) with no free block = %d, want a new block at %d", s, p3+8)
	}
	a.Free(12345) // not a block: ignored
	a.Free(0)
}

func TestArenaLimit(t *testing.T) {
	a := NewArena(4096)
	if p := a.Alloc(4096); p != 0 || a.Failed != 4096 {
		t.Fatalf("alloc over the limit = %d (failed %d), want 0 (failed 4096)", p, a.Failed)
	}
	if p := a.Alloc(math.MaxUint64); p != 0 {
		t.Fatalf("alloc(max) = %d, want 0", p)
	}
	p := a.Alloc(4096 - Base)
	if p == 0 || a.Size() != 4096 {
		t.Fatalf("alloc up to the limit = %d, size %d", p, a.Size())
	}
	if a.Alloc(1) != 0 {
		t.Fatal("alloc past a full arena succeeded")
	}
	a.Reset()
	if a.Failed != 0 || a.Size() > Base || a.Length(p) != 0 {
		t.Fatalf("reset left failed %d, size %d, length %d", a.Failed, a.Size(), a.Length(p))
	}
}

func TestArenaBounds(t *testing.T) {
	a := NewArena(1 << 16)
	p := a.Alloc(10) // 16 bytes in the region [Base, Base+16)
	top := a.Size()
	wild := []uint64{0, 1, Base - 1, top, top + 1, math.MaxUint64, math.MaxUint64 - 3}
	for _, w := range wild {
		if _, ok := a.LoadU8(w); ok {
			t.Errorf("load_u8(%d) succeeded", w)
		}
		if a.StoreU8(w, 1) {
			t.Errorf("store_u8(%d) succeeded", w)
		}
	}
	for _, w := range append(wild, top-7, top-1) {
		if _, ok := a.LoadU64(w); ok {
			t.Errorf("load_u64(%d) succeeded", w)
		}
		if a.StoreU64(w, 1) {
			t.Errorf("store_u64(%d) succeeded", w)
		}
	}
	if !a.StoreU64(top-8, 7) {
		t.Error("store_u64 of the region's last word failed")
	}
	for _, c := range []struct{ p, n uint64 }{{p, top}, {top, 1}, {0, 1}, {p, math.MaxUint64}, {math.MaxUint64, 2}} {
		if a.SetInput(c.p, c.n) || a.SetOutput(c.p, c.n) {
			t.Errorf("input_set/output_set(%d, %d) succeeded", c.p, c.n)
		}
		if _, ok := a.Read(c.p, c.n); ok {
			t.Errorf("read(%d, %d) succeeded", c.p, c.n)
		}
	}
	if !a.SetOutput(0, 0) || !a.SetInput(0, 0) || !a.SetError(0) {
		t.Error("empty input/output or no error refused")
	}
	if a.SetError(top) || a.SetError(math.MaxUint64) {
		t.Error("error_set with a wild offset succeeded")
	}
}

func TestArenaInput(t *testing.T) {
	a := NewArena(1 << 16)
	in := []byte("0123456789abc")
	p := a.Write(in)
	if !a.SetInput(p, uint64(len(in))) {
		t.Fatal("input_set failed")
	}
	if got := a.InputLoadU8(3); got != '3' {
		t.Errorf("input_load_u8(3) = %q", got)
	}
	if got := a.InputLoadU8(uint64(len(in))); got != 0 {
		t.Errorf("input_load_u8 past the end = %d, want 0 as in the kernel", got)
	}
	if v, ok := a.InputLoadU64(5); !ok || v != binary.LittleEndian.Uint64(in[5:]) {
		t.Errorf("input_load_u64(5) = %#x, %v", v, ok)
	}
	if _, ok := a.InputLoadU64(math.MaxUint64); ok {
		t.Error("input_load_u64(max) succeeded")
	}
	a.Free(p)
	if _, n := a.Input(); n != 0 {
		t.Errorf("freeing the input left length %d, want 0", n)
	}
}

func TestArenaOutputAndError(t *testing.T) {
	a := NewArena(1 << 16)
	out := a.Write([]byte("hello"))
	a.SetOutput(out, 5)
	msg := a.Write([]byte("boom"))
	a.SetError(msg)
	a.Free(out) // freeing does not lose the bytes
	if got := a.OutputBytes(); string(got) != "hello" {
		t.Errorf("output = %q", got)
	}
	if got := a.ErrorMessage(); got != "boom" {
		t.Errorf("error = %q", got)
	}
	a.SetError(msg + 1) // inside a block but not a block: no message, as in the kernel
	if got := a.ErrorMessage(); got != "" {
		t.Errorf("error at a non-block offset = %q, want empty", got)
	}
}

// callHost runs the host function name on inst with the given stack and
// returns what it panicked with (nil when it returned).
func callHost(inst *Instance, name string, stack []uint64) (panicked any) {
	defer func() { panicked = recover() }()
	HostFunc(name)(context.Background(), inst, stack)
	return nil
}

// TestHostFuncsWildOffsets: every host function given wild offsets either
// answers (0, ignore) or panics with a *Trap, never with a Go runtime
// error such as an index out of range.
func TestHostFuncsWildOffsets(t *testing.T) {
	wild := []uint64{0, 1, Base, 1 << 20, math.MaxUint32, math.MaxUint64, math.MaxUint64 - 7}
	for _, name := range HostFuncNames() {
		for _, x := range wild {
			for _, y := range wild {
				var logged []string
				inst := NewTestInstance(1<<16, func(l Level, m string) { logged = append(logged, m) })
				inst.arena.Write([]byte("some block"))
				stack := []uint64{x, y}
				if p := callHost(inst, name, stack); p != nil {
					var tr *Trap
					if err, ok := p.(error); !ok || !errors.As(err, &tr) {
						t.Fatalf("%s(%d, %d) panicked with %T %v, want *Trap", name, x, y, p, p)
					}
				}
			}
		}
	}
}

func TestHostFuncsRefuse(t *testing.T) {
	inst := NewTestInstance(1<<16, nil)
	req := inst.arena.Write([]byte(`{"url":"http://127.0.0.1:9/","method":"GET"}`))
	p := callHost(inst, "http_request", []uint64{req, 0})
	if tr, ok := p.(*Trap); !ok || tr.Msg != "HTTP request to 'http://127.0.0.1:9/' is not allowed" {
		t.Errorf("http_request: %v", p)
	}
	bad := inst.arena.Write([]byte(`not json`))
	if tr, ok := callHost(inst, "http_request", []uint64{bad, 0}).(*Trap); !ok || !bytes.HasPrefix([]byte(tr.Msg), []byte("invalid http request: ")) {
		t.Errorf("http_request with bad JSON: %v", tr)
	}
	if tr, ok := callHost(inst, "var_set", []uint64{req, req}).(*Trap); !ok || tr.Msg != "Vars are disabled by this host" {
		t.Errorf("var_set: %v", tr)
	}
	stack := []uint64{0}
	callHost(inst, "get_log_level", stack)
	if stack[0] != 2 {
		t.Errorf("get_log_level = %d, want 2 (info, as the host sets extism/go-sdk)", stack[0])
	}
	var logged []string
	inst = NewTestInstance(1<<16, func(l Level, m string) { logged = append(logged, l.String()+": "+m) })
	for _, fn := range []string{"log_debug", "log_info", "log_error"} {
		off := inst.arena.Write([]byte("msg " + fn))
		callHost(inst, fn, []uint64{off})
		if inst.arena.Length(off) != 0 {
			t.Errorf("%s did not free its message block", fn)
		}
	}
	if got := len(logged); got != 2 || logged[0] != "INFO: msg log_info" || logged[1] != "ERROR: msg log_error" {
		t.Errorf("logged %q, want info and error only", logged)
	}
}

// TestArenaNoStaleData: a call never sees bytes of an earlier call, in a
// new block, a block's padding or a reused block.
func TestArenaNoStaleData(t *testing.T) {
	a := NewArena(1 << 16)
	secret := bytes.Repeat([]byte{0xee}, 1000)
	a.Write(secret)
	a.Reset()
	p := a.Write([]byte("abc")) // 3 bytes, 8-byte block
	if v, ok := a.LoadU64(p); !ok || v != 0x636261 {
		t.Errorf("padding after a written block holds %#x", v)
	}
	q := a.Alloc(500)
	for i := uint64(0); i < 500; i += 8 {
		if v, _ := a.LoadU64(q + i); v != 0 {
			t.Fatalf("new block holds %#x at %d", v, i)
		}
	}
	a.StoreU64(q, 0xffffffffffffffff)
	a.Free(q)
	r := a.Write([]byte("x")) // reuses q's tail (split)
	if v, _ := a.LoadU64(r); v != 'x' {
		t.Errorf("reused block holds %#x", v)
	}
}

// TestArenaBlockBookkeepingBounded: the arena's bookkeeping of blocks
// lives on the Go heap beside the capped bytes, so it must be bounded by
// the limit too. A plugin that allocates one byte at a time (new blocks)
// or splits one large freed block again and again used to make the host
// keep 32 bytes per 8-byte block, about four times the limit, and keep it
// after Reset in a pooled instance.
func TestArenaBlockBookkeepingBounded(t *testing.T) {
	const limit = 256 << 10
	meta := func(a *Arena) uint64 { return uint64(cap(a.blocks)) * uint64(unsafe.Sizeof(block{})) }
	a := NewArena(limit)
	n := 0
	for a.Alloc(1) != 0 {
		n++
	}
	if m := meta(a); m > limit {
		t.Errorf("%d one-byte blocks keep %d bytes of bookkeeping, more than the limit of %d", n, m, limit)
	}
	if a.Failed != 1 {
		t.Errorf("refused allocation not recorded (Failed %d)", a.Failed)
	}
	a.Reset()
	if m := meta(a); m > keepIdle/64 {
		t.Errorf("reset keeps %d bytes of bookkeeping", m)
	}
	big := a.Alloc(limit / 2)
	a.Free(big)
	for a.Alloc(1) != 0 {
	}
	if m := meta(a); m > limit {
		t.Errorf("splitting a freed block keeps %d bytes of bookkeeping, more than the limit of %d", m, limit)
	}
	for _, b := range a.blocks {
		if !b.free && b.used > b.size {
			t.Fatalf("block %+v", b)
		}
	}
}
