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

// TestKVArrowNotATable: a table whose rows all hold "=>" as one column
// of the same count of words (ldconfig -p's "\tlibz.so.1 (libc6,x86-64)
// => /lib/x86_64-linux-gnu/libz.so.1") is a table, not "Name => value"
// lines: on 23b35b3 it was read as 608 names with 608 distinct values,
// and its view lost the index of its rows by name and the profile of
// its columns.
func TestKVArrowNotATable(t *testing.T) {
	var b strings.Builder
	b.WriteString("600 libs found in cache `/etc/ld.so.cache'\n")
	for i := 0; i < 600; i++ {
		arch := "libc6,x86-64"
		if i%50 == 7 {
			arch = "libc6,x86-64, OS ABI: Linux 3.2.0"
		}
		fmt.Fprintf(&b, "\tlibm%03d.so.%d (%s) => /lib/x86_64-linux-gnu/libm%03d.so.%d\n", i, i%7, arch, i, i%7)
	}
	data := []byte(b.String())
	if f := detectKV(data, detectTextKind(data)); f == kvArrow {
		t.Fatalf("a table of rows with a \"=>\" column was read as Name => value lines")
	}
	// Still key/value lines: "name => value" of one word each.
	var kv strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&kv, "setting_%d => %d\n", i, i%3)
	}
	if data := []byte(kv.String()); detectKV(data, detectTextKind(data)) != kvArrow {
		t.Errorf("lines name => value of one word each: not read as Name => value lines")
	}
	// Still key/value lines: phpinfo()'s, whose lines have no one count of words.
	php, err := os.ReadFile("testdata/php-i-cli.txt")
	if err != nil {
		t.Fatal(err)
	}
	if f := detectKV(php, detectTextKind(php)); f != kvArrow {
		t.Fatalf("php -i: form %d, want Name => value", f)
	}
}
