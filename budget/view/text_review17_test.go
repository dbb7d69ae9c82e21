package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestPasswdIsTable: a real /etc/passwd (testdata/passwd-debian12.txt,
// 32 lines of "name:x:uid:gid:gecos:home:shell") is read as a table of 7
// columns split at ':' in the view, as detectDelimited's doc says, not
// as key/value lines split at the first ':' (the old code: "kind:
// key/value lines ... written name:value"; rev17 R10).
func TestPasswdIsTable(t *testing.T) {
	data := readFile(t, "testdata/passwd-debian12.txt")
	n := strings.Count(string(data), "\n")
	text, _ := textViewAt(t, "passwd-debian12.txt", 500)
	if want := fmt.Sprintf("a table of %d rows, 7 columns (split at \":\"", n); !strings.Contains(text, want) || strings.Contains(text, "key/value lines") {
		t.Errorf("the view of /etc/passwd has no %q:\n%s", want, text)
	}
}

// TestSeriesColumnsAreMeasures: vmstat 1 46 (testdata/vmstat-1-46.txt,
// its header repeated) counts interrupts ("in") and context switches
// ("cs") per second, four digits each, and the idle percentage ("id"):
// measures, each stated with its sum, which equals the sum of the rows'
// cells read here; none is called identifiers. On the old code they
// were "numbers (identifiers)", no sum (rev17 R11).
func TestSeriesColumnsAreMeasures(t *testing.T) {
	data := readFile(t, "testdata/vmstat-1-46.txt")
	sums := map[int]int{}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) != 17 || f[0] == "r" {
			continue
		}
		for _, c := range []int{10, 11} {
			var n int
			if _, err := fmt.Sscan(f[c], &n); err != nil {
				t.Fatalf("%q: %v", l, err)
			}
			sums[c] += n
		}
	}
	text, _ := textViewAt(t, "vmstat-1-46.txt", 4000)
	for c, name := range map[int]string{10: "in", 11: "cs"} {
		if want := fmt.Sprintf(" %s: numbers, sum %d, ", name, sums[c]); !strings.Contains(text, want) {
			t.Errorf("no %q in the view", want)
		}
	}
	for _, name := range []string{"in", "cs", "id"} {
		if strings.Contains(text, " "+name+": numbers (identifiers)") {
			t.Errorf("%s called identifiers", name)
		}
	}
}
