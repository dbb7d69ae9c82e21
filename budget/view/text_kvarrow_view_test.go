package view_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
)

// TestKVArrow: phpinfo()'s text (testdata/php-i-cli.txt: this machine's
// PHP 8.2 CLI, `env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C.UTF-8 php -i`,
// 1,034 lines, 9,529 tokens) is key/value lines "Name => value", a
// setting's "Name => local => master" read as one value when the two are
// the same. Its view states the entries by name group and by value,
// counted here independently, and at 8,000 tokens holds nearly every
// name; on the code before it was a text of paragraphs whose view held
// 53% of its names at 8,000 tokens and no count of a name group.
func TestKVArrow(t *testing.T) {
	data := readFile(t, "testdata/php-i-cli.txt")
	// Independently: the entries, the xdebug.* settings, the values.
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	entries, xdebug := 0, 0
	vals := map[string]int{}
	var names []string
	for _, l := range lines {
		name, val, ok := strings.Cut(l, " => ")
		if !ok {
			name, ok = strings.CutSuffix(l, " =>")
		}
		if !ok || name == "" || l[0] == ' ' {
			continue
		}
		entries++
		names = append(names, name)
		if strings.HasPrefix(name, "xdebug.") {
			xdebug++
		}
		if a, b, two := strings.Cut(val, " => "); two && a == b {
			val = a
		}
		vals[strings.TrimSpace(val)]++
	}
	v := buildView(t, inputOf(t, data, 8000))
	c, err := budget.NewCounter("")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []int{4000, 8000} {
		fl, err := v.Fill(c, b)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{
			fmt.Sprintf("key/value lines: %d entries, one a line, written Name => value", entries),
			fmt.Sprintf("xdebug.… %d", xdebug),
			fmt.Sprintf("no value %d, enabled %d, Off %d", vals["no value"], vals["enabled"], vals["Off"]),
		} {
			if !strings.Contains(fl.Text, want) {
				t.Errorf("at %d: no %q in\n%.2500s", b, want, fl.Text)
			}
		}
		// An entry's repeated master value is shown once: "memory_limit
		// => -1" (the last lines of the text are as written).
		_, listed, ok := strings.Cut(fl.Text, "\nentries as written")
		if !ok {
			t.Fatalf("at %d: no entries as written", b)
		}
		listed, _, _ = strings.Cut(listed, "\nlast ")
		for _, l := range strings.Split(listed, "\n") {
			f := strings.Split(strings.TrimSpace(l), " => ")
			if len(f) == 3 && f[1] == f[2] && f[0] != "Directive" {
				t.Errorf("at %d: %q shown with its master value", b, l)
				break
			}
		}
		// Names of words are listed with commas between them.
		if !strings.Contains(fl.Text, "Calendar support, ") && !strings.Contains(fl.Text, "IPv6 Support, ") {
			t.Errorf("at %d: the names of words are not told apart", b)
		}
		if b == 8000 {
			found := 0
			for _, n := range names {
				if strings.Contains(fl.Text, n) {
					found++
				}
			}
			if found*100 < 85*len(names) {
				t.Errorf("at 8,000 tokens: %d of %d names shown, want 85%% or more", found, len(names))
			}
		}
	}
}
