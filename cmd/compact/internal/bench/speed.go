package bench

import (
	"context"
	"io"
	"time"
)

// SpeedOptions configure RunSpeed.
type SpeedOptions struct {
	// BenchTime is the time each benchmark runs (1s when 0).
	BenchTime time.Duration
	// JSON prints the results as JSON.
	JSON bool
}

// RunSpeed runs the speed benchmarks and prints their throughput with the
// ratio against each one's baseline.
func RunSpeed(ctx context.Context, w io.Writer, o SpeedOptions) error {
	return nil
}
