//go:build !unix

package artifact

import (
	"fmt"
	"io/fs"
	"os"
)

// openRegular opens the file at p for reading only if it is a regular
// file (see the unix version; here the check follows the open).
func openRegular(p string) (*os.File, error) {
	if fi, err := os.Lstat(p); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fmt.Errorf("%w (%s)", ErrNotRegular, fi.Mode().Type())}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrNotRegular}
	}
	return f, nil
}
