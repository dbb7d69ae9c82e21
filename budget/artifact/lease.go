package artifact

import (
	"sync"
	"time"
)

// leases is what DirStore and BlobStore share in memory: per digest, the
// readers and writers open in this process (the collector never removes
// a leased object), and when the automatic collector last ran.
type leases struct {
	mu     sync.Mutex
	open   map[string]int // digest -> open readers and writers
	lastGC time.Time
}

// lease marks sum as in use until the returned func is called.
func (l *leases) lease(sum string) func() {
	l.mu.Lock()
	if l.open == nil {
		l.open = map[string]int{}
	}
	l.open[sum]++
	l.mu.Unlock()
	return func() {
		l.mu.Lock()
		if l.open[sum]--; l.open[sum] <= 0 {
			delete(l.open, sum)
		}
		l.mu.Unlock()
	}
}

// leased reports whether sum is in use in this process.
func (l *leases) leased(sum string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open[sum] > 0
}

// gcDue reports whether interval has passed since the automatic collector
// last ran, and if so records now as its start.
func (l *leases) gcDue(now time.Time, interval time.Duration) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastGC) < interval {
		return false
	}
	l.lastGC = now
	return true
}
