package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
)

// Strategy names a way of showing a tool output to a model within a token
// budget. The compact strategy runs the engine; the others are the
// baselines compact is compared with.
type Strategy string

// The strategies, in report order.
const (
	// StrategyCompact runs host.Engine.Compact with the configured registry.
	StrategyCompact Strategy = "compact"
	// StrategyHeadTail shows the head and the tail of the output, equal
	// in characters, with a note between them saying how many characters
	// are left out, as long as the whole fits the budget in exact tokens
	// (the way coding agents truncate command output).
	StrategyHeadTail Strategy = "head+tail"
	// StrategyCharCut shows the first budget×CharsPerToken characters.
	StrategyCharCut Strategy = "char-cut"
	// StrategyTokenCut shows the longest prefix that fits the budget in
	// tokens, with a note before it saying it was cut.
	StrategyTokenCut Strategy = "token-cut"
	// StrategyFirstRows keeps the first records (array elements, stream
	// values, map members or lines) of the output's first collection that
	// fit the budget, in the output's own format.
	StrategyFirstRows Strategy = "first-rows"
	// StrategyPreview shows a PreviewChars preview and saves the whole
	// output to a file, as some coding agents do.
	StrategyPreview Strategy = "preview+file"
	// StrategyRaw shows the output as it is when it fits the budget, and
	// nothing otherwise.
	StrategyRaw Strategy = "raw"
)

// Strategies lists every strategy in report order.
var Strategies = []Strategy{StrategyCompact, StrategyHeadTail, StrategyCharCut, StrategyTokenCut, StrategyFirstRows, StrategyPreview, StrategyRaw}

// DefaultCharsPerToken is the characters-per-token ratio of the char-cut
// strategy: the common rule of thumb "a token is about 4 characters".
const DefaultCharsPerToken = 4

// DefaultPreviewChars is the size of the preview+file strategy's preview.
const DefaultPreviewChars = 2000

// shown is what one strategy shows for one output.
type shown struct {
	// content is exactly what the model sees.
	content string
	// body is the part of content that claims the format in claim (the
	// content without a strategy's note).
	body  string
	claim Format
	// fits is false for the raw strategy when the output is over budget
	// (content is then empty).
	fits bool
	// handle is the artifact handle a follow-up query can use.
	handle string
	// fileHandle is where preview+file's saved file is stored, so that
	// it gets the same search ability as compact's artifact.
	fileHandle string
	// level and actions are the compact result's, for the report.
	level   string
	actions []string
}

// Format is the format a shown text claims, against which it is checked.
type Format string

// The formats validity is checked against.
const (
	// FormatJSON: one JSON value.
	FormatJSON Format = "json"
	// FormatValues: JSON values one after another (JSON Lines, concatenated).
	FormatValues Format = "values"
	// FormatText: text, valid UTF-8.
	FormatText Format = "text"
	// FormatTable: compact's table (header, separator, rows with the same
	// number of cells).
	FormatTable Format = "table"
	// FormatSummary: compact's artifact summary: text that names the handle.
	FormatSummary Format = "summary"
	// FormatNone: nothing is shown.
	FormatNone Format = "none"
)

// formatOf is the format of an original output fed as mode.
func formatOf(mode Input) Format {
	switch mode {
	case InputJSON:
		return FormatJSON
	case InputValues:
		return FormatValues
	default:
		return FormatText
	}
}

// Valid reports whether text is well-formed as f, and why not.
func (f Format) Valid(text string) (bool, string) {
	if !utf8.ValidString(text) {
		return false, "invalid UTF-8 (a character was cut in half)"
	}
	switch f {
	case FormatJSON:
		if err := checkJSONValues(text, true); err != nil {
			return false, err.Error()
		}
	case FormatValues:
		if err := checkJSONValues(text, false); err != nil {
			return false, err.Error()
		}
	case FormatTable:
		if err := checkTable(text); err != nil {
			return false, err.Error()
		}
	case FormatSummary:
		if strings.TrimSpace(text) == "" {
			return false, "empty summary"
		}
	case FormatNone:
		return false, "nothing shown"
	}
	return true, ""
}

// checkJSONValues checks that text is one JSON value (one) or a sequence
// of them.
func checkJSONValues(text string, one bool) error {
	if strings.TrimSpace(text) == "" {
		return fmt.Errorf("no JSON value")
	}
	dec := newNumberDecoder([]byte(text))
	n := 0
	for {
		var v any
		err := dec.Decode(&v)
		if err != nil {
			if n > 0 && errors.Is(err, io.EOF) {
				return nil
			}
			if errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("JSON value %d is cut off at the end of the text (byte %d)", n+1, len(text))
			}
			return fmt.Errorf("JSON value %d: %w", n+1, jsonErr([]byte(text), dec, err))
		}
		n++
		if one {
			if dec.More() {
				return fmt.Errorf("more than one JSON value (byte %d)", dec.InputOffset())
			}
			return nil
		}
	}
}

// checkTable checks a table: at least a header line, and every line that
// has the column separator has as many cells as the header.
func checkTable(text string) error {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	sep := ""
	for _, s := range []string{"\t", " | ", "|"} {
		if strings.Contains(lines[0], s) {
			sep = s
			break
		}
	}
	if sep == "" {
		return fmt.Errorf("table header %q has no column separator", clipText(lines[0], 60))
	}
	want := strings.Count(lines[0], sep)
	for i, l := range lines[1:] {
		if !strings.Contains(l, sep) {
			continue // a note line, not a row
		}
		if got := strings.Count(l, sep); got != want {
			return fmt.Errorf("table line %d has %d separators, the header %d", i+2, got, want)
		}
	}
	return nil
}

// contentFormat guesses the format compact's content claims: JSON when it
// parses as JSON (or starts like it), a table for a table result, the
// summary at the artifact level, text otherwise.
func contentFormat(content, level, contentType string, original Format) Format {
	if level == "artifact" {
		return FormatSummary
	}
	if contentType == budget.TypeTable {
		return FormatTable
	}
	t := strings.TrimLeft(content, " \t\r\n")
	if original != FormatText && t != "" && (t[0] == '{' || t[0] == '[') {
		return original
	}
	if original != FormatText {
		return FormatTable
	}
	return FormatText
}

// prefixRunes returns the first n characters of s.
func prefixRunes(s string, n int) string {
	if n >= len(s) {
		return s
	}
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// charCut shows the first budget×cpt characters of the original.
func charCut(original string, claim Format, budgetTokens, cpt int) shown {
	body := prefixRunes(original, budgetTokens*cpt)
	return shown{content: body, body: body, claim: claim, fits: true}
}

// tokenCutNote is the note placed before a token-cut text.
func tokenCutNote(shownChars, totalChars, budgetTokens int) string {
	return fmt.Sprintf("[output cut to fit %s tokens: the first %s of %s characters follow; the rest is not shown]\n",
		group(budgetTokens), group(shownChars), group(totalChars))
}

// tokenCut shows the longest prefix of original that fits the budget
// together with a note before it.
func tokenCut(original string, claim Format, budgetTokens int, ctr budget.Counter) shown {
	total := utf8.RuneCountInString(original)
	render := func(end int) string {
		body := original[:end]
		if end == len(original) {
			return body
		}
		return tokenCutNote(utf8.RuneCountInString(body), total, budgetTokens) + body
	}
	end := largestFit(len(original), budgetTokens, ctr, func(end int) (string, bool) {
		for end > 0 && end < len(original) && !utf8.RuneStart(original[end]) {
			end--
		}
		return render(end), true
	})
	for end > 0 && end < len(original) && !utf8.RuneStart(original[end]) {
		end--
	}
	content := render(end)
	if end == 0 && ctr.Count(content) > budgetTokens {
		return shown{claim: FormatNone} // not even the note fits
	}
	return shown{content: content, body: original[:end], claim: claim, fits: true}
}

// headTailNote is the note placed between the head and the tail.
func headTailNote(omitted, totalChars int) string {
	return fmt.Sprintf("\n[… %s of %s characters not shown …]\n", group(omitted), group(totalChars))
}

// headTail shows the first and the last k characters of original with a
// note between them, for the largest k whose text fits the budget.
func headTail(original string, claim Format, budgetTokens int, ctr budget.Counter) shown {
	runes := []rune(original)
	total := len(runes)
	render := func(k int) (string, string) {
		if 2*k >= total {
			return original, original
		}
		head, tail := string(runes[:k]), string(runes[total-k:])
		return head + headTailNote(total-2*k, total) + tail, head + tail
	}
	k := largestFit((total+1)/2, budgetTokens, ctr, func(k int) (string, bool) {
		s, _ := render(k)
		return s, true
	})
	content, body := render(k)
	if k == 0 && ctr.Count(content) > budgetTokens {
		return shown{claim: FormatNone}
	}
	return shown{content: content, body: body, claim: claim, fits: true}
}

// largestFit returns the largest n in [0, max] whose rendering fits the
// budget, assuming fit is monotone in n. It doubles n from 1 then
// bisects, so it counts tokens of texts up to twice the budget's size
// only, never the whole output (unless it fits).
func largestFit(max, budgetTokens int, ctr budget.Counter, render func(n int) (string, bool)) int {
	fits := func(n int) bool {
		text, ok := render(n)
		return ok && ctr.Count(text) <= budgetTokens
	}
	lo, hi := 0, 1 // fits(lo), and !fits(hi) once established
	for hi < max && fits(hi) {
		lo = hi
		hi *= 2
	}
	if hi >= max {
		if fits(max) {
			return max
		}
		hi = max
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// firstRows keeps the first records of the output's first collection that
// fit the budget, rendered in the output's format: a JSON array of the
// elements, an object of the map members, JSON values one a line, or
// lines.
func firstRows(data []byte, claim Format, budgetTokens int, ctr budget.Counter) (shown, error) {
	shape, err := budget.DetectShape(data, nil)
	if err != nil {
		return shown{}, fmt.Errorf("first rows: %w", err)
	}
	if len(shape.Collections) == 0 {
		return shown{claim: FormatNone, fits: true}, nil
	}
	c := shape.Collections[0]
	var recs [][]byte
	if err := budget.EachRecord(data, shape, c.Path, func(_ int, raw []byte) error {
		recs = append(recs, bytes.Clone(raw)) // raw may be a reused buffer (map members)
		return nil
	}); err != nil {
		return shown{}, fmt.Errorf("first rows of %s: %w", c.Path, err)
	}
	render := func(k int) string {
		var b bytes.Buffer
		switch c.Kind {
		case "array":
			b.WriteByte('[')
			for i, r := range recs[:k] {
				if i > 0 {
					b.WriteByte(',')
				}
				b.Write(r)
			}
			b.WriteByte(']')
		case "map":
			b.WriteByte('{')
			for i, r := range recs[:k] {
				if i > 0 {
					b.WriteByte(',')
				}
				r = bytes.TrimSpace(r)
				b.Write(bytes.TrimSpace(r[1 : len(r)-1]))
			}
			b.WriteByte('}')
		default: // jsonl, concat, lines
			for _, r := range recs[:k] {
				b.Write(r)
				b.WriteByte('\n')
			}
		}
		return b.String()
	}
	k := largestFit(len(recs), budgetTokens, ctr, func(k int) (string, bool) { return render(k), true })
	body := render(k)
	f := claim
	if c.Kind == "array" || c.Kind == "map" {
		f = FormatJSON
	}
	return shown{content: body, body: body, claim: f, fits: true}, nil
}

// previewFile saves the original to path and shows a preview of its first
// chars characters after a note naming the file.
func previewFile(original string, claim Format, chars int, path string) (shown, error) {
	total := utf8.RuneCountInString(original)
	if total <= chars {
		return shown{content: original, body: original, claim: claim, fits: true}, nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return shown{}, fmt.Errorf("preview: %w", err)
	}
	if err := os.WriteFile(path, []byte(original), 0o600); err != nil {
		return shown{}, fmt.Errorf("preview: %w", err)
	}
	body := prefixRunes(original, chars)
	note := fmt.Sprintf("Output too large (%s characters). Full output saved to: %s\n\nPreview (first %s characters):\n",
		group(total), path, group(chars))
	return shown{content: note + body, body: body, claim: claim, fits: true}, nil
}

// group writes n with thousands separators.
func group(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + group(-n)
	}
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return prefixRunes(s, n) + "…"
}

func newNumberDecoder(b []byte) *json.Decoder {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec
}
