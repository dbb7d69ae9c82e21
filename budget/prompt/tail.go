package prompt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// cutInfo says what one level 4 cut removes; markerText renders it.
type cutInfo struct {
	lines       int    // lines cut from the end of the partial block
	lineTokens  int    // their tokens
	partial     string // the id of the block cut at a line, or ""
	blocks      int    // whole blocks removed after it
	blockTokens int    // their tokens
	handle      string // the artifact holding the cut, or ""
}

// markerText is the line that replaces the cut tail.
func markerText(c cutInfo) string {
	var b strings.Builder
	b.WriteString("[compact: the prompt was cut here to fit its token budget: ")
	var parts []string
	if c.partial != "" {
		parts = append(parts, fmt.Sprintf("the last %d lines of this block (%d tokens)", c.lines, c.lineTokens))
	}
	if c.blocks > 0 {
		w := "blocks"
		if c.blocks == 1 {
			w = "block"
		}
		pre := ""
		if c.partial != "" {
			pre = "after it "
		}
		parts = append(parts, fmt.Sprintf("the %d %s %s(%d tokens)", c.blocks, w, pre, c.blockTokens))
	}
	b.WriteString(strings.Join(parts, " and "))
	b.WriteString(" were removed")
	if c.handle != "" {
		fmt.Fprintf(&b, "; they are stored as %s", budget.RefOf(c.handle))
	}
	b.WriteString("]")
	return b.String()
}

// cutPoints returns the numbers of leading lines a block may keep when its
// tail is cut at a line boundary, in increasing order (0, keeping nothing,
// is always allowed and not listed). A JSON value is never cut inside, nor
// is a fenced code block (``` or ~~~).
func cutPoints(content string, lines []string) []int {
	t := strings.TrimSpace(content)
	if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Valid([]byte(t)) {
		return nil
	}
	var pts []int
	fence := ""
	for i, l := range lines[:len(lines)-1] {
		s := strings.TrimSpace(l)
		switch {
		case fence == "" && (strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~")):
			fence = s[:3]
		case fence != "" && strings.HasPrefix(s, fence):
			fence = ""
		}
		if fence == "" {
			pts = append(pts, i+1)
		}
	}
	return pts
}

// splitLines splits s after each newline; a final empty line is not a
// line.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > 1 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// plannedCut is a level 4 cut that fits.
type plannedCut struct {
	j      int // the first affected position in kept
	keep   int // lines of kept[j] kept; 0 removes it whole
	head   string
	info   cutInfo
	marker string
}

// cutTail is level 4: it cuts the shortest tail of the prompt that makes
// it fit, at a block or line boundary, after the last system or
// tool_result block, and leaves a marker.
func (s *state) cutTail(ctx context.Context) ([]schemas.ContextAction, error) {
	var kept []*item
	for _, it := range s.items {
		if !it.dropped {
			kept = append(kept, it)
		}
	}
	first := 0 // the first cuttable position
	for i, it := range kept {
		if it.block.Kind == schemas.BlockToolResult || it.block.Kind == schemas.BlockSystem {
			first = i + 1
		}
	}
	guess := ""
	if s.f.store != nil {
		guess = "0123456789ab"
	}
	var plan plannedCut
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("prompt: %w", err)
		}
		p, ok := s.planCut(kept, first, guess)
		if !ok {
			return nil, s.cutError(kept, first, guess)
		}
		if s.f.store == nil {
			plan = p
			break
		}
		h, err := s.put(ctx, tailDocument(kept, p), "application/json")
		if err != nil {
			return nil, err
		}
		p.info.handle = h
		p.marker = markerText(p.info)
		if s.planTokens(kept, p) <= s.budget {
			plan = p
			break
		}
		if attempt == 2 {
			return nil, s.cutError(kept, first, h)
		}
		guess = h
	}
	return s.applyCut(kept, plan), nil
}

// planTokens is the size of the prompt after cut p.
func (s *state) planTokens(kept []*item, p plannedCut) int {
	n := 0
	for _, it := range kept[:p.j] {
		n += it.tokens
	}
	if p.keep > 0 {
		return n + s.f.counter.Count(p.head+p.marker)
	}
	return n + s.f.counter.Count(p.marker)
}

// planCut finds the least cut that fits, assuming the artifact handle has
// the form of handle.
func (s *state) planCut(kept []*item, first int, handle string) (plannedCut, bool) {
	for j := len(kept) - 1; j >= first; j-- {
		it := kept[j]
		base := 0
		for _, k := range kept[:j] {
			base += k.tokens
		}
		after := kept[j+1:]
		info := cutInfo{blocks: len(after), handle: handle}
		for _, a := range after {
			info.blockTokens += a.tokens
		}
		lines := splitLines(it.block.Content)
		pts := cutPoints(it.block.Content, lines)
		try := func(keep int) (plannedCut, bool) {
			head := strings.Join(lines[:keep], "")
			if !strings.HasSuffix(head, "\n") {
				head += "\n"
			}
			in := info
			in.partial = it.block.ID
			in.lines = len(lines) - keep
			in.lineTokens = s.f.counter.Count(strings.Join(lines[keep:], ""))
			p := plannedCut{j: j, keep: keep, head: head, info: in, marker: markerText(in)}
			return p, s.planTokens(kept, p) <= s.budget
		}
		// Binary search for the most lines that fit; token counts of
		// prefixes grow with their length.
		lo, hi := 0, len(pts)-1
		var best plannedCut
		found := false
		if base < s.budget {
			for lo <= hi {
				mid := (lo + hi) / 2
				if p, ok := try(pts[mid]); ok {
					best, found = p, true
					lo = mid + 1
				} else {
					hi = mid - 1
				}
			}
		}
		if found {
			return best, true
		}
		in := info
		in.blocks++
		in.blockTokens += it.tokens
		p := plannedCut{j: j, info: in, marker: markerText(in)}
		if s.planTokens(kept, p) <= s.budget {
			return p, true
		}
	}
	return plannedCut{}, false
}

func (s *state) cutError(kept []*item, first int, handle string) error {
	fixed, sys, tools := 0, 0, 0
	for _, it := range kept[:first] {
		fixed += it.tokens
		switch it.block.Kind {
		case schemas.BlockSystem:
			sys += it.tokens
		case schemas.BlockToolResult:
			tools += it.tokens
		}
	}
	best := fixed
	reason := "the blocks up to the last system or tool_result block alone exceed the budget"
	if first < len(kept) {
		rest := 0
		for _, it := range kept[first:] {
			rest += it.tokens
		}
		m := s.f.counter.Count(markerText(cutInfo{blocks: len(kept) - first, blockTokens: rest, handle: handle}))
		best += m
		reason = fmt.Sprintf("cutting the whole cuttable tail (%d blocks, %d tokens) leaves %d tokens with its %d-token marker", len(kept)-first, rest, best, m)
	}
	return &FitError{Budget: s.budget, Before: s.before, Best: best, Fixed: fixed, System: sys, ToolResults: tools, Reason: reason}
}

// tailDocument is what a cut removes, as a context input document: the
// cut lines as a block of the partial block's kind, then the removed
// blocks.
func tailDocument(kept []*item, p plannedCut) string {
	var blocks []schemas.Block
	it := kept[p.j]
	if p.keep > 0 {
		lines := splitLines(it.block.Content)
		b := it.block
		b.Content = strings.Join(lines[p.keep:], "")
		blocks = append(blocks, b)
	} else {
		blocks = append(blocks, it.block)
	}
	for _, a := range kept[p.j+1:] {
		blocks = append(blocks, a.block)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	_ = enc.Encode(schemas.ContextInput{Blocks: blocks}) // cannot fail on strings
	return buf.String()
}

// applyCut changes the prompt as planned and returns the manifest entries.
func (s *state) applyCut(kept []*item, p plannedCut) []schemas.ContextAction {
	var acts []schemas.ContextAction
	where := whereText(p.info.handle, -1)
	if p.info.handle == "" {
		where = "; not stored (no store configured): see the input"
	}
	it := kept[p.j]
	if p.keep > 0 {
		before := it.tokens
		it.block.Content = p.head + p.marker
		it.tokens = s.f.counter.Count(it.block.Content)
		acts = append(acts, schemas.ContextAction{Block: it.block.ID, Action: schemas.Action{
			Level: schemas.LevelTruncate, Kind: "cut_lines", Target: it.block.ID, Count: p.info.lines,
			Detail:       fmt.Sprintf("cut the last %d of %d lines (%d tokens), marker appended", p.info.lines, p.keep+p.info.lines, p.info.lineTokens) + where,
			TokensBefore: before, TokensAfter: it.tokens, Handle: p.info.handle,
		}})
	}
	removed := kept[p.j+1:]
	if p.keep == 0 {
		removed = kept[p.j:]
	}
	for _, r := range removed {
		r.dropped = true
		acts = append(acts, schemas.ContextAction{Block: r.block.ID, Action: schemas.Action{
			Level: schemas.LevelTruncate, Kind: "cut_block", Target: r.block.ID, Count: 1,
			Detail:       fmt.Sprintf("%s block removed with the tail (%d tokens)", r.block.Kind, r.tokens) + where,
			TokensBefore: r.tokens, TokensAfter: 0, Handle: p.info.handle,
		}})
	}
	if p.keep == 0 {
		// The marker becomes a block of the first removed block's kind,
		// so the roles of the prompt stay as they were.
		m := &item{index: -1, block: schemas.Block{ID: s.freeID("cut-marker"), Kind: it.block.Kind, Content: p.marker}}
		m.tokens = s.f.counter.Count(m.block.Content)
		pos := 0
		for i, x := range s.items {
			if x == it {
				pos = i
			}
		}
		s.items = append(s.items[:pos], append([]*item{m}, s.items[pos:]...)...)
		acts = append(acts, schemas.ContextAction{Block: m.block.ID, Action: schemas.Action{
			Level: schemas.LevelTruncate, Kind: "cut_marker", Target: m.block.ID,
			Detail:       "marker block added where the tail was cut",
			TokensBefore: 0, TokensAfter: m.tokens, Handle: p.info.handle,
		}})
	}
	return acts
}

func (s *state) freeID(base string) string {
	id := base
	for n := 2; s.byID(id) != nil; n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}

// put stores text when a store is configured and returns its handle.
func (s *state) put(ctx context.Context, text, contentType string) (string, error) {
	if s.f.store == nil {
		return "", nil
	}
	h, _, err := s.f.store.Put(ctx, strings.NewReader(text), budget.Meta{Tool: "context", ContentType: contentType, Bytes: int64(len(text))})
	if err != nil {
		return "", fmt.Errorf("prompt: store what was removed: %w", err)
	}
	return string(h), nil
}
