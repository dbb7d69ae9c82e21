package view

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestKVArrowDetect: phpinfo()'s text (testdata/php-i-cli.txt: this
// machine's PHP 8.2 CLI, `env -i PATH=/usr/bin:/bin HOME=/tmp
// LANG=C.UTF-8 php -i`) is key/value lines "Name => value" (on the code
// before, a text of paragraphs); print_r's indented "[key] => value" and
// a few arrows among prose are not.
func TestKVArrowDetect(t *testing.T) {
	data, err := os.ReadFile("testdata/php-i-cli.txt")
	if err != nil {
		t.Fatal(err)
	}
	if f := detectKV(data, detectTextKind(data)); f != kvArrow {
		t.Fatalf("form %d, want Name => value", f)
	}
	// Not phpinfo(): print_r's indented "[key] => value", and a few
	// arrows among prose.
	var printR, prose strings.Builder
	printR.WriteString("Array\n(\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&printR, "    [key%d] => %d\n", i, i)
		fmt.Fprintf(&prose, "Step %d maps the input to the output of the stage before it.\n", i)
		if i%8 == 0 {
			fmt.Fprintf(&prose, "stage%d => stage%d\n", i, i+1)
		}
	}
	printR.WriteString(")\n")
	for name, text := range map[string]string{"print_r": printR.String(), "prose": prose.String()} {
		data := []byte(text)
		if f := detectKV(data, detectTextKind(data)); f == kvArrow {
			t.Errorf("%s: read as Name => value lines", name)
		}
	}
}
