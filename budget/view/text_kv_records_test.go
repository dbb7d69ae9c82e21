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
