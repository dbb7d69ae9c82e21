package view

import (
	"math/rand"
	"strings"
	"testing"
)

// TestStripEscapesAgainstJQ: the jq the view prints before its queries
// (jqEscapes) removes the terminal control sequences of every line as
// stripEscapes does, on random lines of words, colours, cursor moves,
// OSC titles, character sets, broken and nested sequences; and no
// newline is lost (lines keep their positions).
func TestStripEscapesAgainstJQ(t *testing.T) {
	pieces := []string{"Checking", " ", "OK", "[ ", " ]", "\x1b[1;32m", "\x1b[0;39m", "\x1b[0m", "\x1b[31C", "\x1b[C", "\x1b[0C",
		"\x1b[400C", "\x1b[2K", "\x1b[?25l", "\x1b]0;title\x07", "\x1b]8;;http://x\x1b\\", "\x1b]2;t", "\x1b(B", "\x1b)0",
		"\x1b", "\x1b[", "\x1b[12", "\x1b[1;2C", "\x1b[5 C", "\x1b\x1b[33m", "\x1bM", "\x1b7", "x\x1by", "é", "\r", "\t", "[", "]"}
	rng := rand.New(rand.NewSource(17))
	var b strings.Builder
	for i := 0; i < 1000; i++ {
		for k := rng.Intn(8); k >= 0; k-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		b.WriteByte('\n')
	}
	data := []byte(b.String())
	got, n := stripEscapes(data)
	if n == 0 {
		t.Fatal("no sequence counted")
	}
	if countLines(got) != countLines(data) {
		t.Fatalf("%d lines after, %d before", countLines(got), countLines(data))
	}
	var want []string
	textLines(got, func(_ int, l string) { want = append(want, l) })
	out := jqLines(t, data, "["+strings.TrimSuffix(jqEscapes(true), " | ")+"] | .[0][]")
	if len(out) != len(want) {
		t.Fatalf("jq: %d lines, want %d", len(out), len(want))
	}
	for i := range want {
		if out[i] != want[i] {
			t.Errorf("line %d %q: jq %q, view %q", i, strings.Split(string(data), "\n")[i], out[i], want[i])
		}
	}
	if strings.Contains(string(got), "\x1b[") {
		t.Errorf("a CSI sequence is left:\n%q", got)
	}
}

// TestCursorMoveAsSpaces: a cursor move forward by n columns is n
// spaces, colours are nothing: rkhunter's aligned status column.
func TestCursorMoveAsSpaces(t *testing.T) {
	in := "    Checking 'strings' command\x1b[31C[ \x1b[1;32mOK\x1b[0;39m ]\r\n\x1b[2C- Detecting OS... \x1b[41C [ DONE ]\n"
	got, n := stripEscapes([]byte(in))
	want := "    Checking 'strings' command" + strings.Repeat(" ", 31) + "[ OK ]\r\n  - Detecting OS... " + strings.Repeat(" ", 41) + " [ DONE ]\n"
	if string(got) != want || n != 5 {
		t.Errorf("got %q (%d sequences), want %q (5)", got, n, want)
	}
}
