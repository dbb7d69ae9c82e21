//go:build unix

package artifact

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an advisory flock on f: shared for readers, exclusive
// for writers and the collector. With nonblock it fails with errBusy
// instead of waiting. flock locks belong to the open file description,
// so they also exclude other descriptors of the same process.
func lockFile(f *os.File, exclusive, nonblock bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	if nonblock {
		how |= syscall.LOCK_NB
	}
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return errBusy
		}
		return err
	}
}

// unlinked reports whether f's file has been removed from its directory.
func unlinked(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink == 0
}

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}
