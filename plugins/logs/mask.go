package main

import (
	"bytes"

	lt "github.com/toolcompact/compact/schemas/linetemplate"
)

// levelWords are the words (matched whole and case-insensitively) that
// make a line important: it is always kept verbatim (the ABI's list, which
// the host checks too). Words ending in "error" or "exception"
// (ValueError, NullPointerException) count too.
var levelWords = lt.ImportantWords

// levelMatcher decides which lines are important.
type levelMatcher struct {
	words map[string]bool
	// builtin is set when words is exactly levelWords: then isLevelWord
	// (a string switch, no hashing) answers instead of the map, which is
	// several times faster inside WebAssembly.
	builtin bool
}

// isLevelWord reports whether a lower-case word is one of levelWords.
func isLevelWord(w string) bool {
	switch w {
	case "error", "errors", "err", "fatal", "panic", "panicked", "warn", "warning", "warnings",
		"exception", "exceptions", "traceback", "failed", "failure", "failures", "fail",
		"critical", "crit", "severe", "emerg", "emergency", "alert", "abort", "aborted",
		"killed", "oom", "segfault", "denied", "refused", "unhealthy":
		return true
	}
	return false
}

func newLevelMatcher(extra, ignore []string) *levelMatcher {
	m := &levelMatcher{words: make(map[string]bool, len(levelWords)+len(extra)), builtin: len(extra) == 0 && len(ignore) == 0}
	for _, w := range levelWords {
		m.words[w] = true
	}
	for _, w := range extra {
		m.words[string(bytes.ToLower([]byte(w)))] = true
	}
	for _, w := range ignore {
		delete(m.words, string(bytes.ToLower([]byte(w))))
	}
	return m
}

// important reports whether line holds a level word, or starts with a
// klog/glog severity prefix for warning, error or fatal (W1122, E1122,
// F1122).
func (m *levelMatcher) important(line []byte) bool {
	if len(line) >= 5 && (line[0] == 'W' || line[0] == 'E' || line[0] == 'F') && lt.FixedDigits(line, 1, 4) {
		return true
	}
	var buf [10]byte // the longest built-in level word has 10 letters
	var long []byte  // for longer custom words
	for i := 0; i < len(line); {
		if !lt.IsLetter(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && lt.IsLetter(line[j]) {
			j++
		}
		w := line[i:j]
		i = j
		if len(w) < 3 {
			continue
		}
		if len(w) <= len(buf) || !m.builtin {
			var low []byte
			if len(w) <= len(buf) {
				low = buf[:len(w)]
			} else {
				long = append(long[:0], w...)
				low = long
			}
			for k, c := range w {
				low[k] = c | 0x20
			}
			if m.builtin {
				if isLevelWord(string(low)) {
					return true
				}
			} else if m.words[string(low)] {
				return true
			}
		}
		switch w[len(w)-1] | 0x20 {
		case 'r':
			if len(w) > 5 && hasSuffixFold(w, "error") && (m.builtin || m.words["error"]) {
				return true
			}
		case 'n':
			if len(w) > 9 && hasSuffixFold(w, "exception") && (m.builtin || m.words["exception"]) {
				return true
			}
		}
	}
	return false
}

func hasSuffixFold(w []byte, suffix string) bool {
	return len(w) >= len(suffix) && bytes.EqualFold(w[len(w)-len(suffix):], []byte(suffix))
}
