//go:build !unix

package artifact

import (
	"context"
	"errors"

	"github.com/toolcompact/compact/budget"
)

// Map is not available on this system: it fails with
// errors.ErrUnsupported, and callers read the artifact with Open.
func (s *DirStore) Map(ctx context.Context, h budget.Handle) ([]byte, budget.Meta, func(), error) {
	return nil, budget.Meta{}, nil, errors.ErrUnsupported
}
