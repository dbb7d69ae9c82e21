package view

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// leafCapColls returns the collections of a JSON output as the tests
// see them: a stream's values, a root array's items, or each array
// member of a root object.
func leafCapColls(t *testing.T, data []byte) []Collection {
	dec := json.NewDecoder(bytes.NewReader(data))
	var vals []json.RawMessage
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			break
		}
		vals = append(vals, v)
	}
	if len(vals) > 1 {
		return []Collection{{Path: ".", Kind: "jsonl", Count: len(vals), Text: data}}
	}
	if len(vals) == 0 {
		return nil
	}
	var out []Collection
	arr := func(path string, raw []byte) {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) == nil && len(items) > 0 {
			out = append(out, Collection{Path: path, Kind: "array", Count: len(items), Text: raw})
		}
	}
	first := bytes.TrimLeft(data, " \t\r\n")
	if first[0] == '[' {
		arr(".", bytes.TrimRight(first, " \t\r\n"))
		return out
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) != nil {
		return nil
	}
	for k := range m {
		// The member's value as a slice of data (Unmarshal copies).
		d := json.NewDecoder(bytes.NewReader(data))
		d.Token()
		for d.More() {
			key, _ := d.Token()
			var raw json.RawMessage
			if d.Decode(&raw) != nil {
				break
			}
			if key == k {
				end := int(d.InputOffset())
				arr("."+k, data[end-len(raw):end])
				break
			}
		}
	}
	return out
}

// leafCapInputs are generated outputs whose records the index reads in
// ways of their own: past maxIndexRecords, past maxIndexBytes, lists of
// pairs, objects keyed "0".."n-1", escaped names, a field that is a
// scalar in some records and an object in others, members past the
// field cap, scalar records.
func leafCapInputs() map[string][]byte {
	ins := map[string][]byte{}
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < 4500; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		parent := fmt.Sprintf(`{"id":%d,"kind":"team"}`, i%7)
		if i%5 == 0 {
			parent = `"none"`
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user %d","a\"b":%d,"tags":["x","y%d"],"parent":%s,"score":%d.5}`, i, i, i%3, i%4, parent, i%100)
	}
	b.WriteByte(']')
	ins["many"] = []byte(b.String())
	b.Reset()
	b.WriteByte('[')
	long := strings.Repeat("z", 2000)
	for i := 0; i < 900; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"n%d","text":"%s","env":[{"name":"A","value":"%d"},{"name":"B","value":"b"}],"m":{"0":"a","1":"b%d"}}`, i, i, long, i, i%3)
	}
	b.WriteByte(']')
	ins["big-pairs-indexed"] = []byte(b.String())
	b.Reset()
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, `{"level":"info","msg":"m %d","n":%d}`+"\n", i, i)
		for j := 0; j < i%3; j++ {
			fmt.Fprintf(&b, `{"f%d":%d}`+"\n", i*10+j, j)
		}
	}
	ins["stream-many-fields"] = []byte(b.String())
	b.Reset()
	b.WriteByte('[')
	for i := 0; i < 500; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"v%d.%d"`, i/10, i%10)
	}
	b.WriteByte(']')
	ins["scalars"] = []byte(b.String())
	return ins
}

// TestIndexLeavesKept: the leaves the profile's pass keeps for the index
// (leafcap.go) are those the index's own walk of the records gives
// (eachRecordLeaves), in the same order, with the same records' texts
// and the same stops, on every captured JSON output's collections and on
// generated ones; where they cannot stand for the walk (lists of pairs,
// objects keyed "0".."n-1") they are not used. And the views made with
// them are the views made by reading the records again, byte for byte.
func TestIndexLeavesKept(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/captured/*.json*")
	ins := leafCapInputs()
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		ins[filepath.Base(f)] = data
	}
	replayed, compared := 0, 0
	for name, data := range ins {
		for _, c := range leafCapColls(t, data) {
			in := Input{Data: data}
			k := profiledColl(t, in, c)
			mask := make([]bool, len(k.p.Fields)+1)
			for i := range mask {
				mask[i] = true
			}
			trace := func(replay bool) (string, bool) {
				var out strings.Builder
				read := 0
				begin := func(i int) bool {
					fmt.Fprintf(&out, "begin %d\n", i)
					return i < maxIndexRecords
				}
				leaf := func(f *Field, v []byte) {
					fmt.Fprintf(&out, "%s=%s@%d\n", f.Path, v, offsetIn(data, v))
				}
				end := func(i int, raw []byte) error {
					fmt.Fprintf(&out, "end %d %d+%d\n", i, offsetIn(data, raw), len(raw))
					if read+len(raw) > maxIndexBytes && i >= smallIndex {
						return errStop
					}
					read += len(raw)
					return nil
				}
				if replay {
					ok, err := k.replayLeaves(mask, begin, leaf, end)
					if err != nil {
						t.Fatal(err)
					}
					return out.String(), ok
				}
				noLeafReplay = true
				defer func() { noLeafReplay = false }()
				if err := k.eachRecordLeaves(mask, begin, leaf, end); err != nil {
					t.Fatal(err)
				}
				return out.String(), true
			}
			want, _ := trace(false)
			got, ok := trace(true)
			if !ok {
				continue
			}
			replayed++
			if got != want {
				t.Errorf("%s %s: the leaves kept differ from the walk's:\n%s\nwant\n%s", name, c.Path, firstDiffOf(got, want), firstDiffOf(want, got))
			}
		}
		// The whole views, with and without the leaves kept.
		colls := leafCapColls(t, data)
		if len(colls) == 0 {
			continue
		}
		for _, b := range []int{2000, 8000} {
			in := Input{Tool: "t", ContentType: "application/json", Format: "json", Data: data, Handle: "0123456789ab", Budget: b, Collections: colls}
			if colls[0].Kind == "jsonl" {
				in.ContentType, in.Format = "application/x-ndjson", "jsonl"
			}
			view := func(replay bool) string {
				noLeafReplay = !replay
				defer func() { noLeafReplay = false }()
				v, err := Build(in)
				if err != nil {
					return "error: " + err.Error()
				}
				fl, err := v.Fill(byteCounter{}, b)
				if err != nil {
					return "error: " + err.Error()
				}
				return fl.Text
			}
			compared++
			if got, want := view(true), view(false); got != want {
				t.Errorf("%s at %d: the view differs:\n%s\nwant\n%s", name, b, firstDiffOf(got, want), firstDiffOf(want, got))
			}
		}
	}
	if replayed < 20 {
		t.Errorf("the leaves kept stood for the walk in %d collections only", replayed)
	}
	t.Logf("%d collections' leaves compared, %d views", replayed, compared)
}

// firstDiffOf returns a's text around its first difference from b.
func firstDiffOf(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return a[max(0, i-300):min(len(a), i+300)]
}
