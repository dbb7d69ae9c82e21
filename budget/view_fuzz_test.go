package budget

import (
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget/view"
)

// FuzzViewBuild builds the level-2 view of any JSON (the profile and the
// selection of rows in one pass, the look at the kept records) with and
// without request words, and fills a budget: it never fails or panics,
// the text fits and every collection's count is stated exactly.
//
//	go test ./budget -run '^$' -fuzz FuzzViewBuild -fuzztime 30s
func FuzzViewBuild(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), uint16(300), false)
	}
	f.Add([]byte(`[{"status":"Running","exitCode":0,"n":1},{"status":"CrashLoopBackOff","exitCode":137,"n":900},{"status":"Running","exitCode":0,"n":2,"rare":true}]`), uint16(400), true)
	f.Add([]byte(`{"m":{"a\u0041":{"x":1},"b":{"x":2},"c":{"x":"s"},"d":{"x":null},"e":{},"f":{"x":[1,2]},"g":{"x":3},"h":{"x":4},"i":{"x":5}}}`), uint16(500), true)
	// A flat map of mixed scalars (a map of scalars' own view, json_map.go).
	f.Add([]byte(`{"HAVE_A0":1,"SIZEOF_1":0,"py_v2":1.0,"userCpu3":"","K\"4":null,"x.y5":true,"HAVE_A6":"x\u0041","SIZEOF_7":"-O2 -g","py_v8":"/usr/lib","userCpu9":1e3,"K\"10":1,"x.y11":0,"HAVE_A12":1.0,"SIZEOF_13":"","py_v14":null,"userCpu15":true,"K\"16":"x\u0041","x.y17":"-O2 -g","HAVE_A18":"/usr/lib","SIZEOF_19":1e3,"py_v20":1,"userCpu21":0,"K\"22":1.0,"x.y23":"","HAVE_A24":null,"SIZEOF_25":true,"py_v26":"x\u0041","userCpu27":"-O2 -g","K\"28":"/usr/lib","x.y29":1e3,"HAVE_A30":1,"SIZEOF_31":0,"py_v32":1.0,"userCpu33":"","K\"34":null,"x.y35":true,"HAVE_A36":"x\u0041","SIZEOF_37":"-O2 -g","py_v38":"/usr/lib","userCpu39":1e3,"K\"40":1,"x.y41":0,"HAVE_A42":1.0,"SIZEOF_43":"","py_v44":null,"userCpu45":true,"K\"46":"x\u0041","x.y47":"-O2 -g","HAVE_A48":"/usr/lib","SIZEOF_49":1e3}`), uint16(350), false)
	// A map of tuples (json_tuple.go): lists that lead with a state,
	// some longer than the positions with a line of their own.
	f.Add([]byte(`{"rules":{"a":["error"],"b":["off",{"x":1}],"c\u0041":["warn","never",{"y":[1]},"p","q"],"d":["error",2],"e":[],"f":["off"],"g":["error",{"x":2},{"z":null}],"h":["error","always"],"i":[true,null]}}`), uint16(300), false)
	c := counter(f)
	f.Fuzz(func(t *testing.T, data []byte, budget uint16, args bool) {
		if len(data) > 4096 {
			return
		}
		sh, err := DetectShape(data, nil)
		if err != nil || sh.Format == FormatText || sh.Format == FormatBinary || len(sh.Collections) == 0 {
			return
		}
		b := int(budget%2000) + 200
		in := viewInput(data, sh, b)
		in.Drop = dropFunc(Rules{Defaults: true})
		if args {
			in.Args = []byte(`{"q":"running error x"}`)
		}
		v, err := view.Build(in)
		if err != nil {
			t.Fatalf("Build: %v", err)
		}
		filled, err := v.Fill(c, b)
		if err != nil {
			return // even the bare view does not fit this budget
		}
		if filled.Tokens > b || c.Count(filled.Text) != filled.Tokens {
			t.Fatalf("%d tokens (counted %d) for a budget of %d", filled.Tokens, c.Count(filled.Text), b)
		}
		for _, col := range sh.Collections {
			if !strings.Contains(filled.Text, commas(col.Count)+" ") {
				t.Fatalf("collection %s: its count %d is not stated:\n%s", col.Path, col.Count, filled.Text)
			}
		}
	})
}
