package budget_test

import (
	"encoding/json"
	"fmt"
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

// TestKeyPrefixCounts checks the counts of a keyed collection's keys by
// their part before the first "/" (npm scopes here; media types, paths)
// against the keys themselves: every count the view states is exact.
func TestKeyPrefixCounts(t *testing.T) {
	data, err := os.ReadFile("../testdata/captured/npm-view-vite.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		DevDependencies map[string]any `json:"devDependencies"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for k := range doc.DevDependencies {
		if i := strings.IndexByte(k, '/'); i >= 0 {
			want[k[:i]]++
		}
	}
	p, _ := l2Pipeline(t)
	res := runView(t, p, "vite-document", data, 4000)
	_, after, ok := strings.Cut(res.Content, "collection .devDependencies (map)")
	if !ok {
		t.Fatalf("no .devDependencies section:\n%s", head(res.Content, 20))
	}
	_, line, ok := strings.Cut(after, "keys before the first /: ")
	if !ok {
		t.Fatalf("no key prefix counts in the .devDependencies section:\n%s", head(after, 6))
	}
	line, _, _ = strings.Cut(line, "\n")
	rest := 0
	for _, part := range strings.Split(line, ", ") {
		if strings.Contains(part, " more with ") {
			continue // the rare prefixes, summed
		}
		var n int
		i := strings.LastIndexByte(part, ' ')
		if i < 0 {
			t.Fatalf("cannot read %q", part)
		}
		k := part[:i]
		if _, err := fmt.Sscan(part[i+1:], &n); err != nil {
			t.Fatalf("cannot read %q: %v", part, err)
		}
		if want[k] != n {
			t.Errorf("%s: view says %d, the keys have %d", k, n, want[k])
		}
		rest++
	}
	if rest < 2 {
		t.Errorf("only %d prefixes listed: %q", rest, line)
	}
}
