package budget

import "testing"

// SetFeedGate sets the inputs level 1's walk profiles for the view
// (feed.go: from minBytes bytes and over bytes per token of budget) until
// the end of t. A negative minBytes feeds none.
func SetFeedGate(t testing.TB, minBytes, over int) {
	m, o := feedMinBytes, feedOver
	t.Cleanup(func() { feedMinBytes, feedOver = m, o })
	if minBytes < 0 {
		minBytes = int(^uint(0) >> 1)
	}
	feedMinBytes, feedOver = minBytes, over
}

// FedViews counts the collections level 2's views started from a fed
// profile so far.
func FedViews() int64 { return fedViews.Load() }
