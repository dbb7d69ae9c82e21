//go:build unix

package artifact

import (
	"path/filepath"
	"syscall"
)

// fsSize returns the size in bytes of the file system that holds dir (or
// its nearest existing parent), and false when it cannot tell.
func fsSize(dir string) (int64, bool) {
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(p, &st); err == nil {
			return int64(st.Blocks) * int64(st.Bsize), true
		}
		if p == filepath.Dir(p) {
			return 0, false
		}
	}
}
