package view

import (
	"fmt"
	"strings"
)

// Delimited lines whose cells may be quoted: a CSV engine's data file
// (MariaDB's general_log.CSV: "2026-11-27 13:29:58.130719","root[root]
// @ localhost []",65,1,"Query","CREATE TABLE t (id INT, name …)"), an
// audit log whose statements are quoted ('SELECT id,k FROM t'). A comma
// inside quotes separates no cells, so a split at every comma makes rows
// of a varying number of cells, and the lines that hold one fall out of
// the table as "other lines" with every count of their cells.
//
// A cell is quoted when, after the spaces and tabs that pad it, it
// starts with '"' or '\'': it runs to the matching quote (a backslash
// escapes the next character; in "…" a doubled "" is a quote inside),
// and only spaces and tabs may follow it before the next separator or
// the line's end; otherwise the line is no row. The cell's value is what
// stands between the quotes, as written (escapes are not undone). An
// unquoted cell runs to the next separator, trimmed of spaces and tabs.

// sepQuotedCells splits line at sep outside quoted cells; nil when a quoted
// cell is not closed or is followed by anything but padding before the
// next separator.
func sepQuotedCells(line, sep string) []string {
	return quotedCellsMark(line, sep, nil)
}

// quotedCellsMark is sepQuotedCells; when marks is not nil it also records,
// per cell, whether the cell was quoted.
func quotedCellsMark(line, sep string, marks *[]bool) []string {
	out := make([]string, 0, 8)
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i < len(line) && (line[i] == '"' || line[i] == '\'') {
			q := line[i]
			j := i + 1
			closed := false
			for j < len(line) {
				c := line[j]
				if c == '\\' && j+1 < len(line) {
					j += 2
					continue
				}
				if c == q {
					if q == '"' && j+1 < len(line) && line[j+1] == '"' {
						j += 2
						continue
					}
					closed = true
					break
				}
				j++
			}
			if !closed {
				return nil
			}
			out = append(out, line[i+1:j])
			if marks != nil {
				*marks = append(*marks, true)
			}
			i = j + 1
			for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
				i++
			}
			if i == len(line) {
				return out
			}
			if !strings.HasPrefix(line[i:], sep) {
				return nil
			}
			i += len(sep)
			continue
		}
		if marks != nil {
			*marks = append(*marks, false)
		}
		k := strings.Index(line[i:], sep)
		if k < 0 {
			return append(out, trimBlank(line[i:]))
		}
		out = append(out, trimBlank(line[i:i+k]))
		i += k + len(sep)
	}
}

// jqQuotedCells is the jq expression (over one line) that yields the
// cells sepQuotedCells makes, or nothing for a line that is no row: the
// line with the separator put before it is matched cell by cell (each
// match a separator, padding, a quoted or unquoted cell, padding), and
// it is a row when the matches cover it whole.
func jqQuotedCells(sep string) string {
	s := regexpQuote(sep)
	c := regexpClass(sep)
	re := s + "[ \t]*(\"(?:[^\"\\\\]|\\\\.|\"\")*\"|'(?:[^'\\\\]|\\\\.)*'|[^" + c + "\"' \t][^" + c + "]*|)[ \t]*"
	return fmt.Sprintf(`(%s + .) as $l | [$l | match(%s; "g")] | select((map(.length) | add) == ($l | length)) | map(.captures[0].string | gsub("[ \t]+$"; "") | if startswith("\"") or startswith("'") then .[1:-1] else . end)`,
		jqString(sep), jqString(re))
}

// regexpClass quotes a separator for inside a character class.
func regexpClass(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\]^-[`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// quotedLines reports whether one of the first 200 non-blank lines of
// sample has a cell at sep that starts with a quote: only then are
// quotes tried (a cheap test before a pass over the sample). One is
// enough: psql --csv quotes only the cells that hold a comma, 20 lines
// of 355, and split plainly those lines fall out of the table.
func quotedLines(sample []byte, sep string) bool {
	lines, quoted := 0, 0
	textLinesWhile(sample, func(pos int, line string) bool {
		if trimBlank(line) == "" {
			return true
		}
		lines++
		if hasQuotedCell(line, sep) {
			quoted++
			return false
		}
		return lines < 200
	})
	return quoted > 0
}

// quotedShare counts, over the non-blank lines of sample, the lines that
// have a quoted cell at sep (a cell that starts with a quote) and the
// modal number of cells of sepQuotedCells with the lines that have it.
func quotedShare(sample []byte, sep string) (quoted, k, n int) {
	w := map[int]int{}
	firstLines(sample, func(pos int, line string) {
		if trimBlank(line) == "" {
			return
		}
		f := sepQuotedCells(line, sep)
		if f == nil {
			return
		}
		w[len(f)]++
		if hasQuotedCell(line, sep) {
			quoted++
		}
	})
	k, n = modal(w)
	return quoted, k, n
}

// hasQuotedCell reports whether a cell of line (split at sep) starts
// with a quote after its padding.
func hasQuotedCell(line, sep string) bool {
	at := true
	for i := 0; i < len(line); i++ {
		c := line[i]
		if at && (c == ' ' || c == '\t') {
			continue
		}
		if at && (c == '"' || c == '\'') {
			return true
		}
		at = strings.HasPrefix(line[i:], sep)
	}
	return false
}
