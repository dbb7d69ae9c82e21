package budget

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkFedParts times the steps of the view's making apart, in
// one loop on each input (CPU ms per step): "plain" level 1's walk,
// "fed" the fed walk, "own" the view built by its own walk, "fedview"
// the view built from the fed profile. The feed saves
// (own - fedview) - (fed - plain).
func BenchmarkFedParts(b *testing.B) {
	c, ins := viewBenchSetup(b, viewBenchSize(b))
	for _, in := range ins {
		b.Run(in.name, func(b *testing.B) {
			var t [4]time.Duration
			step := func(i int, f func()) {
				runtime.GC()
				c0 := cpuTime()
				f()
				t[i] += cpuTime() - c0
			}
			for b.Loop() {
				var plain, fed Shape
				step(0, func() { plain, _ = DetectShape(in.data, in.rules.Records) })
				step(1, func() { fed, _ = detectShapeFed(in.data, in.rules.Records, "", newFeedPlan(in.data, in.rules, nil)) })
				step(2, func() { viewOnce(b, c, in.data, plain, in.rules) })
				step(3, func() { viewOnce(b, c, in.data, fed, in.rules) })
			}
			for i, name := range []string{"plain", "fed", "own", "fedview"} {
				b.ReportMetric(float64(t[i].Microseconds())/1e3/float64(b.N), name+"-ms")
			}
			b.ReportMetric(float64((t[2]-t[3])-(t[1]-t[0]))/float64(t[0]), "saved/walk")
		})
	}
}
