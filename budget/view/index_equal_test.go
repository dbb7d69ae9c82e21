package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// outdatedLike is a package manager's list of outdated packages: 300
// records of name, current, wanted (the current version in 9 records of
// 10) and latest version, dependent and location.
func outdatedLike() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		cur := fmt.Sprintf("%d.%d.%d", i%5+1, i%7, i%3)
		wanted := cur
		if i%10 == 3 {
			wanted = fmt.Sprintf("%d.%d.%d", i%5+1, i%7, i%3+1)
		}
		fmt.Fprintf(&b, `{"name":"pkg-%03d","current":%q,"wanted":%q,"latest":"%d.%d.0","dependent":"app-%d","location":"/srv/app/node_modules/pkg-%03d"}`,
			i, cur, wanted, i%9+2, i%4, i%40, i)
	}
	b.WriteString("]")
	return []byte(b.String())
}

// TestIndexSkipsFieldEqualToPicked: of the fields an index line shows
// past the key, not one whose value is a picked field's in most lines
// (wanted, the current version in 9 lines of 10) while another is left:
// the lines are name, current, latest, and pkg-137's line has the latest
// version its record has. On the old code they were name, current,
// wanted, and no line said a package's latest version.
func TestIndexSkipsFieldEqualToPicked(t *testing.T) {
	v, data := viewOfData(t, outdatedLike())
	f := fillAt(t, v, 8000)
	if !strings.Contains(f.Text, " one per line (tab-separated: name, current, latest):\n") {
		t.Fatalf("the index is not by name with current and latest:\n%s", f.Text)
	}
	want := jq(t, data, `.[] | select(.name == "pkg-137") | [.name, .current, .latest] | join("\t")`)[0].(string)
	if !strings.Contains(f.Text, "\n"+want+"\n") {
		t.Errorf("no index line %q:\n%s", want, f.Text)
	}
}
