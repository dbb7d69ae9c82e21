//go:build unix

package artifact

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestDefaultQuota: the command line's default quota is 1 GiB, or 5% of
// the store's file system when that is more (a 1 GB output on a larger
// disk can be stored); a directory not created yet is measured on the
// file system that will hold it.
func TestDefaultQuota(t *testing.T) {
	dir := t.TempDir()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Skip(err)
	}
	want := max(int64(DefaultMaxBytes), int64(float64(int64(st.Blocks)*int64(st.Bsize))*DefaultQuotaShare))
	if got := DefaultQuota(dir); got != want {
		t.Errorf("DefaultQuota(%s) = %d, want %d", dir, got, want)
	}
	if got := DefaultQuota(filepath.Join(dir, "not", "yet")); got != want {
		t.Errorf("DefaultQuota of a directory not created yet = %d, want %d", got, want)
	}
}
