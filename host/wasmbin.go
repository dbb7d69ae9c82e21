package host

import (
	"errors"
	"fmt"
	"strings"
)

// funcSig is a WebAssembly function type: value type bytes of its
// parameters and results (0x7f is i32).
type funcSig struct {
	params, results []byte
}

// String renders the signature as "(i32, i64) -> (i32)".
func (s funcSig) String() string {
	names := func(ts []byte) string {
		n := make([]string, len(ts))
		for i, t := range ts {
			switch t {
			case 0x7f:
				n[i] = "i32"
			case 0x7e:
				n[i] = "i64"
			case 0x7d:
				n[i] = "f32"
			case 0x7c:
				n[i] = "f64"
			case 0x7b:
				n[i] = "v128"
			default:
				n[i] = fmt.Sprintf("0x%02x", t)
			}
		}
		return "(" + strings.Join(n, ", ") + ")"
	}
	return names(s.params) + " -> " + names(s.results)
}

// wasmReader reads the WebAssembly binary format.
type wasmReader struct {
	b   []byte
	off int
}

var errTruncated = errors.New("truncated")

func (r *wasmReader) byte() (byte, error) {
	if r.off >= len(r.b) {
		return 0, errTruncated
	}
	c := r.b[r.off]
	r.off++
	return c, nil
}

// u32 reads an unsigned LEB128 number of at most 32 bits.
func (r *wasmReader) u32() (uint32, error) {
	var v uint32
	for shift := 0; shift < 35; shift += 7 {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		v |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return v, nil
		}
	}
	return 0, errors.New("LEB128 number too long")
}

// u64 reads an unsigned LEB128 number of at most 64 bits.
func (r *wasmReader) u64() error {
	for i := 0; i < 10; i++ {
		c, err := r.byte()
		if err != nil {
			return err
		}
		if c&0x80 == 0 {
			return nil
		}
	}
	return errors.New("LEB128 number too long")
}

func (r *wasmReader) bytes(n uint32) ([]byte, error) {
	if uint64(r.off)+uint64(n) > uint64(len(r.b)) {
		return nil, errTruncated
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s, nil
}

func (r *wasmReader) vecBytes() ([]byte, error) {
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	return r.bytes(n)
}

func (r *wasmReader) limits() error {
	flags, err := r.byte()
	if err != nil {
		return err
	}
	if flags > 7 {
		return fmt.Errorf("bad limits flags 0x%02x", flags)
	}
	wide := flags&4 != 0 // memory64
	read := func() error {
		if wide {
			return r.u64()
		}
		_, err := r.u32()
		return err
	}
	if err := read(); err != nil {
		return err
	}
	if flags&1 != 0 {
		return read()
	}
	return nil
}

// exportedFuncs reads the signatures of the exported functions of a
// WebAssembly binary from its type, import, function and export sections,
// without compiling it (the compile that follows validates everything).
func exportedFuncs(bin []byte) (map[string]funcSig, error) {
	if len(bin) < 8 || string(bin[:4]) != "\x00asm" {
		return nil, errors.New("not a WebAssembly binary (no \\0asm magic)")
	}
	if string(bin[4:8]) != "\x01\x00\x00\x00" {
		return nil, fmt.Errorf("WebAssembly binary version %x, want 1", bin[4:8])
	}
	r := &wasmReader{b: bin, off: 8}
	var (
		types     []funcSig
		funcTypes []uint32 // type index of every function, imported first
		exports   = map[string]uint32{}
	)
	for r.off < len(r.b) {
		id, err := r.byte()
		if err != nil {
			return nil, err
		}
		size, err := r.u32()
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", id, err)
		}
		body, err := r.bytes(size)
		if err != nil {
			return nil, fmt.Errorf("section %d: %w", id, err)
		}
		s := &wasmReader{b: body}
		switch id {
		case 1:
			err = readTypes(s, &types)
		case 2:
			err = readImports(s, &funcTypes)
		case 3:
			err = readFunctions(s, &funcTypes)
		case 7:
			err = readExports(s, exports)
		}
		if err != nil {
			return nil, fmt.Errorf("section %d at byte %d: %w", id, r.off-int(size), err)
		}
	}
	out := make(map[string]funcSig, len(exports))
	for name, fi := range exports {
		if int(fi) >= len(funcTypes) {
			return nil, fmt.Errorf("export %q names function %d of %d", name, fi, len(funcTypes))
		}
		ti := funcTypes[fi]
		if int(ti) >= len(types) {
			return nil, fmt.Errorf("function %d has type %d of %d", fi, ti, len(types))
		}
		out[name] = types[ti]
	}
	return out, nil
}

func readTypes(s *wasmReader, types *[]funcSig) error {
	n, err := s.u32()
	if err != nil {
		return err
	}
	for range n {
		form, err := s.byte()
		if err != nil {
			return err
		}
		if form != 0x60 {
			return fmt.Errorf("type form 0x%02x is not a plain function type", form)
		}
		p, err := s.vecBytes()
		if err != nil {
			return err
		}
		res, err := s.vecBytes()
		if err != nil {
			return err
		}
		*types = append(*types, funcSig{params: p, results: res})
	}
	return nil
}

func readImports(s *wasmReader, funcTypes *[]uint32) error {
	n, err := s.u32()
	if err != nil {
		return err
	}
	for range n {
		if _, err := s.vecBytes(); err != nil { // module
			return err
		}
		if _, err := s.vecBytes(); err != nil { // name
			return err
		}
		kind, err := s.byte()
		if err != nil {
			return err
		}
		switch kind {
		case 0x00: // function
			ti, err := s.u32()
			if err != nil {
				return err
			}
			*funcTypes = append(*funcTypes, ti)
		case 0x01: // table: reftype, limits
			if _, err := s.byte(); err != nil {
				return err
			}
			if err := s.limits(); err != nil {
				return err
			}
		case 0x02: // memory
			if err := s.limits(); err != nil {
				return err
			}
		case 0x03: // global: valtype, mutability
			if _, err := s.bytes(2); err != nil {
				return err
			}
		case 0x04: // tag: attribute, type index
			if _, err := s.byte(); err != nil {
				return err
			}
			if _, err := s.u32(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("unknown import kind 0x%02x", kind)
		}
	}
	return nil
}

func readFunctions(s *wasmReader, funcTypes *[]uint32) error {
	n, err := s.u32()
	if err != nil {
		return err
	}
	for range n {
		ti, err := s.u32()
		if err != nil {
			return err
		}
		*funcTypes = append(*funcTypes, ti)
	}
	return nil
}

func readExports(s *wasmReader, exports map[string]uint32) error {
	n, err := s.u32()
	if err != nil {
		return err
	}
	for range n {
		name, err := s.vecBytes()
		if err != nil {
			return err
		}
		kind, err := s.byte()
		if err != nil {
			return err
		}
		idx, err := s.u32()
		if err != nil {
			return err
		}
		if kind == 0x00 {
			exports[string(name)] = idx
		}
	}
	return nil
}
