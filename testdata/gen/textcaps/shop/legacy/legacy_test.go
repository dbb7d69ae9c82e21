package legacy

import "testing"

func TestOld(t *testing.T) { _ = Old() }
