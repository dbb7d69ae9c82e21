package view_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// indexHead returns the fields an index's head names (after its key).
func indexHead(t *testing.T, text, coll string) []string {
	t.Helper()
	m := regexp.MustCompile(`index of ` + regexp.QuoteMeta(coll) + `, [^\n]*\(tab-separated: ([^)]*)\)[^\n]*:\n`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no index of %s:\n%s", coll, text)
	}
	return strings.Split(m[1], ", ")
}

// TestIndexLeavesOutWhatTheKeyGives: an index cell the line's key already
// gives is left out, so that the line says something of its own. npm
// query's records hold their name in their path
// ("/tmp/p/node_modules/etag") and location ("node_modules/etag"): the
// index names each record by its name, the shorter, and shows its
// version ("etag	1.8.1"), not "path	name	version" with the name twice.
// A Go package's name ends its import path ("archive/tar", "tar") and
// its directory is the import path under GOROOT's src: neither is an
// index field, the import path stays the key (the text around the name
// differs from package to package). The foot's query lists the rest in
// the same form, by the path (two records share a name).
func TestIndexLeavesOutWhatTheKeyGives(t *testing.T) {
	words := []string{"etag", "debug", "ms", "qs", "send", "accepts", "bytes", "depd", "destroy", "fresh", "mime", "vary", "ipaddr", "cookie", "statuses", "negotiator"}
	var recs []map[string]any
	recs = append(recs, map[string]any{"name": "app", "version": "1.0.0", "path": "/tmp/p", "location": "", "license": "ISC"})
	for i := range 80 {
		name := fmt.Sprintf("%s-%d", words[i%len(words)], i)
		recs = append(recs, map[string]any{
			"name": name, "version": fmt.Sprintf("%d.%d.%d", i%5, i, i%3),
			"path": "/tmp/p/node_modules/" + name, "location": "node_modules/" + name,
			"license": []string{"MIT", "ISC", "BSD-3-Clause", "Apache-2.0"}[i%4],
		})
		if i%20 == 3 {
			// (a second copy, nested under another package: names
			// are not unique)
			recs = append(recs, map[string]any{
				"name": name, "version": fmt.Sprintf("0.%d.0", i),
				"path": "/tmp/p/node_modules/x/node_modules/" + name, "location": "node_modules/x/node_modules/" + name, "license": "MIT",
			})
		}
	}
	data, _ := json.Marshal(recs)
	v, _ := viewOfData(t, data)
	text := fillAt(t, v, 30000).Text
	head := indexHead(t, text, ".")
	if head[0] != "name" {
		t.Errorf("index key %q, want name (the path holds it):\n%s", head[0], text)
	}
	for _, f := range head[1:] {
		if f == "path" || f == "location" || f == "name" {
			t.Errorf("index field %s: the key gives it (head %v)", f, head)
		}
	}
	if !regexp.MustCompile(`\netag-0\t([^\n]*\t)?0\.0\.0(\t|\n)`).MatchString(text) {
		t.Errorf("no index line for etag-0 with its version:\n%s", text)
	}
	// The rest, in the same form.
	small := fillAt(t, v, 1500).Text
	lines, rest, total, query := indexLines(t, small)
	if query != "" {
		got := jq(t, data, query)[0].([]any)
		n := len(lines) + indexSkipped(small) // (and the records shown as rows)
		if len(got) != rest || n+rest != total {
			t.Errorf("rest query %s gives %d, foot says %d of %d (%d listed)", query, len(got), rest, total, n)
		}
		// (by the path: some names are not unique,
		// TestIndexNameSharedKeepsPath)
		if first := got[0].([]any); n < len(recs) && first[0] != recs[n]["path"] {
			t.Errorf("rest starts with %v, want record %d's path %v", first, n, recs[n]["path"])
		}
	}

	dirs := []string{"archive", "compress", "crypto", "encoding", "go", "image", "net", "text"}
	var pkgs []map[string]any
	for i := range 64 {
		name := fmt.Sprintf("%s%d", words[i%len(words)], i)
		if i%16 == 5 {
			name = "rand" // (crypto/rand, math/rand: names are not unique)
		}
		path := dirs[(i/8)%len(dirs)] + "/" + name
		pkgs = append(pkgs, map[string]any{
			"ImportPath": path, "Name": name, "Dir": "/usr/lib/go/src/" + path,
			"Doc": fmt.Sprintf("Package %s implements part %d.", name, i), "Standard": i%9 != 0,
		})
	}
	data, _ = json.Marshal(pkgs)
	v, _ = viewOfData(t, data)
	text = fillAt(t, v, 30000).Text
	head = indexHead(t, text, ".")
	if head[0] != "ImportPath" {
		t.Errorf("index key %q, want ImportPath:\n%s", head[0], text)
	}
	for _, f := range head[1:] {
		if f == "Name" || f == "Dir" {
			t.Errorf("index field %s: the import path gives it (head %v)", f, head)
		}
	}
}
