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
	out := jqLines(t, data, "["+strings.TrimSuffix(jqEscapes(true, cursorOne(data)), " | ")+"] | .[0][]")
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

// TestStripEscapesLastLineOnlySequences: a last line without a newline
// that is only sequences (a final colour reset) stays a (blank) line:
// the text keeps its number of lines (rev17 R1).
func TestStripEscapesLastLineOnlySequences(t *testing.T) {
	for _, in := range []string{"a\x1b[1m\nb\n\x1b[0m", "a\n\x1b[0m\x1b]0;t\x07", "a\n\x1b[0m\r", "a\n\x1b[0mb"} {
		got, _ := stripEscapes([]byte(in))
		if countLines(got) != countLines([]byte(in)) {
			t.Errorf("%q: %d lines after (%q), %d before", in, countLines(got), got, countLines([]byte(in)))
		}
	}
}

// TestCursorMovesBounded: cursor moves that would more than double the
// text written as their spaces (10,000 lines "ESC[999Cx") are one space
// each, in the view's reading and in its queries' (rev17 R2); a move
// of a number too long to read is the most spaces, not one.
func TestCursorMovesBounded(t *testing.T) {
	data := []byte(strings.Repeat("\x1b[999Cx\n", 10000))
	if !cursorOne(data) {
		t.Fatal("10,000 moves of 999 columns not bounded")
	}
	got, _ := stripEscapes(data)
	if len(got) > 2*len(data) {
		t.Fatalf("%d bytes from %d", len(got), len(data))
	}
	out := jqLines(t, data, "["+strings.TrimSuffix(jqEscapes(true, true), " | ")+"] | .[0][0]")
	if len(out) != 1 || out[0] != " x" {
		t.Errorf("jq: %q, want \" x\"", out)
	}
	small := []byte("a\x1b[99999999999999999999Cb\n" + strings.Repeat("a line of plain text\n", 20))
	if cursorOne(small) {
		t.Fatal("one move bounded")
	}
	got, _ = stripEscapes(small)
	want := "a" + strings.Repeat(" ", maxCursorForward) + "b\n"
	got = got[:len(want)]
	jq := jqLines(t, small, "["+strings.TrimSuffix(jqEscapes(true, false), " | ")+"] | .[0][0]")
	if string(got) != want || len(jq) != 1 || jq[0] != strings.TrimSuffix(want, "\n") {
		t.Errorf("a long number: view %q, jq %q", got, jq)
	}
}
