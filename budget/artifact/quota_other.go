//go:build !unix

package artifact

// fsSize cannot tell the size of a file system here: DefaultQuota is then
// DefaultMaxBytes.
func fsSize(dir string) (int64, bool) { return 0, false }
