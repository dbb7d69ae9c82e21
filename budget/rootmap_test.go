package budget_test

import (
	"os"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

// TestRootMapIsOneCollection checks an output that is one keyed map at its
// root (`npm view esbuild time --json`: version -> publish time). Its
// members are the records of the collection ".", so the view shows them
// in that collection's section (profile, rows, their count) and never as
// "outside the collections" facts, which used to take the whole budget
// while the collection showed none of its 441 records.
func TestRootMapIsOneCollection(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/npm-view-esbuild-time.json")
	if err != nil {
		t.Fatal(err)
	}
	p, _ := l2Pipeline(t)
	for _, b := range []int{1000, 2000, 4000} {
		res := runView(t, p, "npm.view.time", data, b)
		if res.Level != schemas.LevelArtifact {
			t.Fatalf("budget %d: level %s, want artifact", b, res.Level)
		}
		if strings.Contains(res.Content, "outside the collections") {
			t.Errorf("budget %d: the root map's records are shown as facts:\n%s", b, head(res.Content, 12))
		}
		if !strings.Contains(res.Content, "collection . (map): 441 records") {
			t.Errorf("budget %d: no section for the root collection with its exact count:\n%s", b, head(res.Content, 12))
		}
		// The profile's time range is stated.
		if !strings.Contains(res.Content, "earliest 2024-02-27T16:27:13.631000+00:00") {
			t.Errorf("budget %d: the earliest publish time is not stated", b)
		}
	}
}

func head(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
