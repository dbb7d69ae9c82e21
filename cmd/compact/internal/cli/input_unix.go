//go:build unix

package cli

import (
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only. The mapping outlives
// f's closing; release unmaps it. An empty file maps to no bytes.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if size == 0 {
		return []byte{}, func() {}, nil
	}
	if int64(int(size)) != size {
		return nil, nil, syscall.EFBIG
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, err
	}
	return data, func() { syscall.Munmap(data) }, nil
}

// canMap reports whether artifacts are mapped for queries
// (artifact.DirStore.Map), as they are on Unix.
const canMap = true
