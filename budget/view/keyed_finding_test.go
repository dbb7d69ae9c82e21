package view_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestKeyedRecordsOneFindingByItsText: go vet -json prints one object
// per package, {"<package>": {analyzer: [finding, ...]}}; most packages
// of a run have one finding. The index line of such a package names
// its analyzer with its one finding's message ("vetdata/copylock
// copylocks 1: assignment copies lock value..."): what vet reports in
// the package is read off its line. A package of several findings is
// named by its analyzers and their counts, as before.
func TestKeyedRecordsOneFindingByItsText(t *testing.T) {
	var b strings.Builder
	msgs := map[string]string{}
	for i := range 40 {
		key := fmt.Sprintf("vetdata/pkg%02d", i)
		an := map[string][]map[string]any{}
		if i%5 == 0 {
			for j := range 3 {
				an["printf"] = append(an["printf"], map[string]any{"posn": fmt.Sprintf("/src/pkg%02d/p.go:%d:2", i, 10+j), "end": fmt.Sprintf("/src/pkg%02d/p.go:%d:9", i, 10+j),
					"message": fmt.Sprintf("fmt.Printf format %%d has arg %d of wrong type string", j)})
			}
		} else {
			msg := fmt.Sprintf("assignment copies lock value to v%d: sync.Mutex", i)
			an["copylocks"] = []map[string]any{{"posn": fmt.Sprintf("/src/pkg%02d/c.go:7:2", i), "end": fmt.Sprintf("/src/pkg%02d/c.go:7:9", i), "message": msg}}
			msgs[key] = msg
		}
		rec, _ := json.MarshalIndent(map[string]any{key: an}, "", "\t")
		b.Write(rec)
		b.WriteByte('\n')
	}
	v, _ := viewOfData(t, []byte(b.String()))
	text := fillAt(t, v, 8000).Text
	for key, msg := range msgs {
		if want := "\n" + key + "\tcopylocks 1: " + msg + "\n"; !strings.Contains(text, want) {
			t.Errorf("no index line %q:\n%s", want[1:], text)
			break
		}
	}
	if !strings.Contains(text, "\nvetdata/pkg05\tprintf 3\n") {
		t.Errorf("no index line %q:\n%s", "vetdata/pkg05\tprintf 3", text)
	}
}
