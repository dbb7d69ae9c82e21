//go:build wasip1 && !pdk_noextism

package pdk

import (
	"unsafe"
)

// The Extism kernel functions a guest needs (module "extism:host/env";
// see host.go in github.com/extism/go-sdk). Offsets and lengths are in the
// kernel's own memory, not the guest's.

//go:wasmimport extism:host/env input_length
func extismInputLength() uint64

//go:wasmimport extism:host/env input_load_u64
func extismInputLoadU64(offset uint64) uint64

//go:wasmimport extism:host/env input_load_u8
func extismInputLoadU8(offset uint64) uint32

//go:wasmimport extism:host/env alloc
func extismAlloc(length uint64) uint64

//go:wasmimport extism:host/env store_u64
func extismStoreU64(offset uint64, v uint64)

//go:wasmimport extism:host/env store_u8
func extismStoreU8(offset uint64, v uint32)

//go:wasmimport extism:host/env output_set
func extismOutputSet(offset uint64, length uint64)

//go:wasmimport extism:host/env error_set
func extismErrorSet(offset uint64)

// inputBuf is reused by Input from call to call: a fresh megabyte per
// call would be garbage that the guest's collector (slow inside the host)
// must then reclaim.
var inputBuf []byte

// Input returns the whole Extism input of the current call. The returned
// slice is only valid until the next call: Input reuses its buffer.
func Input() []byte {
	n := extismInputLength()
	if uint64(cap(inputBuf)) < n {
		inputBuf = make([]byte, n)
	}
	buf := inputBuf[:n]
	i := uint64(0)
	// Eight words per iteration: the eight host calls cannot be avoided
	// (the Extism ABI moves eight bytes per call), but with the host's
	// deadline checks every loop iteration costs an exit to Go too.
	for ; i+64 <= n; i += 64 {
		b := buf[i : i+64 : i+64]
		putLE64(b[0:], extismInputLoadU64(i))
		putLE64(b[8:], extismInputLoadU64(i+8))
		putLE64(b[16:], extismInputLoadU64(i+16))
		putLE64(b[24:], extismInputLoadU64(i+24))
		putLE64(b[32:], extismInputLoadU64(i+32))
		putLE64(b[40:], extismInputLoadU64(i+40))
		putLE64(b[48:], extismInputLoadU64(i+48))
		putLE64(b[56:], extismInputLoadU64(i+56))
	}
	// The rest of the words without a loop (a taken branch costs an exit
	// too, so straight-line blocks beat up to seven iterations).
	if i+32 <= n {
		b := buf[i : i+32 : i+32]
		putLE64(b[0:], extismInputLoadU64(i))
		putLE64(b[8:], extismInputLoadU64(i+8))
		putLE64(b[16:], extismInputLoadU64(i+16))
		putLE64(b[24:], extismInputLoadU64(i+24))
		i += 32
	}
	if i+16 <= n {
		b := buf[i : i+16 : i+16]
		putLE64(b[0:], extismInputLoadU64(i))
		putLE64(b[8:], extismInputLoadU64(i+8))
		i += 16
	}
	if i+8 <= n {
		putLE64(buf[i:], extismInputLoadU64(i))
		i += 8
	}
	if i < n && n >= 8 {
		// The tail as one overlapping word: each byte call goes through the
		// Extism kernel (a Go host function, a function lookup and, under
		// a deadline, a goroutine), so up to seven of them cost more than
		// the rest of a small call.
		putLE64(buf[n-8:], extismInputLoadU64(n-8))
		i = n
	}
	for ; i < n; i++ {
		buf[i] = byte(extismInputLoadU8(i))
	}
	return buf
}

// store copies b into a new block of kernel memory and returns its offset.
func store(b []byte) uint64 {
	off := extismAlloc(uint64(len(b)))
	storeAt(off, b)
	return off
}

// storeAt copies b to kernel memory at off.
func storeAt(off uint64, b []byte) {
	n := uint64(len(b))
	i := uint64(0)
	for ; i+64 <= n; i += 64 {
		w := b[i : i+64 : i+64]
		extismStoreU64(off+i, le64(w[0:]))
		extismStoreU64(off+i+8, le64(w[8:]))
		extismStoreU64(off+i+16, le64(w[16:]))
		extismStoreU64(off+i+24, le64(w[24:]))
		extismStoreU64(off+i+32, le64(w[32:]))
		extismStoreU64(off+i+40, le64(w[40:]))
		extismStoreU64(off+i+48, le64(w[48:]))
		extismStoreU64(off+i+56, le64(w[56:]))
	}
	for ; i+8 <= n; i += 8 {
		extismStoreU64(off+i, le64(b[i:]))
	}
	if i < n && n >= 8 {
		// The tail as one overlapping word, inside the block (see Input).
		extismStoreU64(off+n-8, le64(b[n-8:]))
		i = n
	}
	for ; i < n; i++ {
		extismStoreU8(off+i, uint32(b[i]))
	}
}

// SetOutput makes b the Extism output of the current call.
func SetOutput(b []byte) {
	extismOutputSet(store(b), uint64(len(b)))
}

// SetError sets the Extism error message of the current call. The export
// should then return a non-zero status.
func SetError(msg string) {
	extismErrorSet(store(unsafe.Slice(unsafe.StringData(msg), len(msg))))
}

// ReadInput reads the current call's input and splits it into header and
// raw tool output.
func ReadInput() (Header, []byte, error) {
	return ParseInput(Input())
}

// WriteOutput frames h and payload and makes them the call's output.
// The framing is written straight into the host's memory: the header line
// and the first bytes of the payload from a scratch buffer, the rest of
// the payload from where it is, with no buffer for the whole output.
func WriteOutput(h OutputHeader, payload []byte) {
	head, rest := frameOutput(&h, payload)
	n := uint64(len(head) + len(rest))
	off := extismAlloc(n)
	storeAt(off, head)
	if len(rest) > 0 {
		storeAt(off+uint64(len(head)), rest)
	}
	extismOutputSet(off, n)
}

// Run is the body of a plugin's compact_result export: it reads the input,
// runs fn as Process does and sets the output, or the error message when
// anything fails. It returns the status the export must return.
//
//	//go:wasmexport compact_result
//	func compactResult() int32 { return pdk.Run(compact) }
func Run(fn Func) int32 {
	h, payload, err := ParseInput(Input())
	if err != nil {
		SetError(err.Error())
		return 1
	}
	oh, body, err := call(fn, h, payload)
	if err != nil {
		SetError(err.Error())
		return 1
	}
	WriteOutput(oh, body)
	return 0
}
