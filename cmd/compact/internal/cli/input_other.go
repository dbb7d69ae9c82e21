//go:build !unix

package cli

import (
	"io"
	"os"
)

// mapFile reads the first size bytes of f into memory, where mapping is
// not available.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() {}, nil
}

// canMap reports whether artifacts are mapped (artifact.DirStore.Map):
// not here, queries read them.
const canMap = false
