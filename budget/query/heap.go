package query

import (
	"context"
	"errors"
	"fmt"
	"runtime/metrics"
	"time"
)

// errHeap is the cause of a jq run stopped by watchHeap.
var errHeap = errors.New("memory cap reached")

const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes() int64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// watchHeap cancels ctx (with errHeap as the cause) when the heap grows
// by more than limit bytes; gojq checks its context in every loop, so the
// run stops soon after. The returned function stops the watch.
func watchHeap(ctx context.Context, cancel context.CancelCauseFunc, limit int64) func() {
	start := heapBytes()
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if grown := heapBytes() - start; grown > limit {
					cancel(fmt.Errorf("%w: the heap grew by %d MiB, over the cap of %d MiB", errHeap, grown>>20, limit>>20))
					return
				}
			}
		}
	}()
	return func() { close(done) }
}
