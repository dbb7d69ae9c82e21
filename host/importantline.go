package host

import (
	"bytes"

	"github.com/toolcompact/compact/schemas/linetemplate"
)

// The line templates of ABI v1 (schemas/ABI.md, "Grouping lines,
// verifiably") are defined once, in schemas/linetemplate: the host checks a
// "[×N] template" line against linetemplate.Append, the same function the
// first-party logs plugin groups its lines with.

// importantLine reports whether the host classifies line as an error or
// a warning: it holds one of linetemplate.ImportantWords as a whole word (any case),
// a word ending in "error" or "exception", or starts with a klog/glog
// severity prefix for warning, error or fatal (W1122, E1122, F1122).
// Such a line must appear verbatim in a text payload, never only inside
// a template.
func importantLine(line []byte) bool {
	if len(line) >= 5 && (line[0] == 'W' || line[0] == 'E' || line[0] == 'F') && linetemplate.FixedDigits(line, 1, 4) {
		return true
	}
	var buf [16]byte
	for i := 0; i < len(line); {
		if !linetemplate.IsLetter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && linetemplate.IsLetter(line[j]) {
			j++
		}
		w := line[i:j]
		i = j
		if len(w) < 3 {
			continue
		}
		if len(w) <= len(buf) {
			low := buf[:len(w)]
			for k, c := range w {
				low[k] = c | 0x20
			}
			if importantWord[string(low)] {
				return true
			}
		}
		if (len(w) > 5 && bytes.EqualFold(w[len(w)-5:], []byte("error"))) ||
			(len(w) > 9 && bytes.EqualFold(w[len(w)-9:], []byte("exception"))) {
			return true
		}
	}
	return false
}

var importantWord = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range linetemplate.ImportantWords {
		m[w] = true
	}
	return m
}()
