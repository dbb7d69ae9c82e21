//go:build !unix

package artifact

import "os"

// lockFile is a no-op where flock is not available: only the in-process
// leases protect files from the collector there.
func lockFile(f *os.File, exclusive, nonblock bool) error { return nil }

func unlinked(f *os.File) bool { return false }

func syncDir(dir string) error { return nil }
