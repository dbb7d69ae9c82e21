package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// TestRowsShowTheFieldRecordsAreLookedUpFor: pip inspect's distributions
// each hold their own version (metadata.version, 85 distinct of 94),
// the field every lookup asks for ("which version of botocore"); the
// rows showed the metadata format's version, flags, four list columns
// and a long path instead, never the package's version. A short field
// named like what records are looked up for (version, size, time,
// status, ...) whose values are the record's own (a value for every
// four records or more) ranks as a column above those.
func TestRowsShowTheFieldRecordsAreLookedUpFor(t *testing.T) {
	var recs []map[string]any
	for i := range 60 {
		md := map[string]any{
			"name":                     fmt.Sprintf("pkg-%02d", i),
			"version":                  fmt.Sprintf("%d.%d.%d", i%7, i%11, i),
			"metadata_version":         []string{"2.1", "2.4", "2.3"}[i%3],
			"description_content_type": []string{"text/markdown", "text/x-rst", "text/plain"}[i%3],
			"keywords":                 []string{"a", "b", fmt.Sprint("k", i)},
			"classifier":               []string{"Development Status :: 5 - Production/Stable", fmt.Sprint("Topic :: ", i%4)},
			"platform":                 []string{"any", fmt.Sprint("os", i%3)},
			"provides_extra":           []string{"dev", fmt.Sprint("x", i%5)},
			"dynamic":                  []string{"license", fmt.Sprint("d", i%2)},
			"requires_dist":            []string{"six", fmt.Sprint("r", i%6)},
		}
		recs = append(recs, map[string]any{"metadata": md, "requested": i%7 == 0, "installer": "pip",
			"metadata_location": fmt.Sprintf("/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/pkg_%02d-%d.dist-info", i, i)})
	}
	data, _ := json.Marshal(map[string]any{"installed": recs})
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 8000).Text
	head := regexp.MustCompile(`(?m)^#\t(.*)\twhy$`).FindStringSubmatch(text)
	if head == nil {
		t.Fatalf("no rows:\n%s", text)
	}
	if cols := strings.Split(head[1], "\t"); !contains(cols, "metadata.version") {
		t.Errorf("rows show %v, not metadata.version:\n%s", cols, text)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
