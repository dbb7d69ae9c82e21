package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
)

// Total returns the total of strategy s at budget b, or false.
func (r *Report) Total(b int, s Strategy) (Total, bool) {
	for _, t := range r.Totals {
		if t.Budget == b && t.Strategy == s {
			return t, true
		}
	}
	return Total{}, false
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("bench report: %w", err)
	}
	return nil
}

func ratio(n, d int) string {
	return fmt.Sprintf("%d/%d", n, d)
}

func pct(n, d int) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(n)/float64(d))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// WriteText writes the terminal table: for each budget, one line per
// output × strategy, then the totals per strategy.
func (r *Report) WriteText(w io.Writer) error {
	for _, b := range r.Budgets {
		fmt.Fprintf(w, "budget %s tokens (%s; char-cut at %d chars/token)\n", group(b), r.Encoding, r.CharsPerToken)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "output\tstrategy\ttokens\tin budget\tvalid\tcounts\tinline\t+1 query\tanswerable\tlevel\t")
		for _, res := range r.Results {
			if res.Budget != b {
				continue
			}
			name := res.Output
			if res.Strategy != r.Strategies[0] {
				name = ""
			}
			tokens, fits, valid := "–", "–", "–"
			if res.Shown {
				tokens, fits, valid = group(res.Tokens), yesNo(res.WithinBudget), yesNo(res.Valid)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, res.Strategy, tokens, fits, valid,
				ratio(res.CountsStated, res.Counts), ratio(res.Inline, res.Questions), ratio(res.FollowUp, res.Questions),
				ratio(res.Answerable, res.Questions), res.Level)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	if err := r.WriteTotals(w); err != nil {
		return err
	}
	return r.writePluginFaults(w)
}

// PluginFaults lists every plugin that was skipped or failed while compact
// made what the report measures, one line per output and budget: compact's
// figures then come from the declarative rules, and the report says so.
func (r *Report) PluginFaults() []string {
	var out []string
	for _, res := range r.Results {
		for _, n := range res.Notes {
			out = append(out, fmt.Sprintf("%s at %s tokens: %s", res.Output, group(res.Budget), n))
		}
	}
	return out
}

// writePluginFaults writes PluginFaults under a heading, or nothing.
func (r *Report) writePluginFaults(w io.Writer) error {
	faults := r.PluginFaults()
	if len(faults) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\nplugin faults: %d (the declarative rules ran in their place)\n", len(faults))
	for _, f := range faults {
		if _, err := fmt.Fprintf(w, "  %s\n", f); err != nil {
			return err
		}
	}
	return nil
}

// WriteTotals writes the totals per budget × strategy as a terminal table.
func (r *Report) WriteTotals(w io.Writer) error {
	fmt.Fprintf(w, "totals over %d outputs\n", len(r.Outputs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "budget\tstrategy\ttokens\tsaved vs raw\tshown\tvalid\tin budget\tall counts stated\tinline\t+1 query\tanswerable\tlevels\t")
	for _, t := range r.Totals {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f%%\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", group(t.Budget), t.Strategy, group(t.Tokens), 100*t.Saved,
			ratio(t.Shown, t.Outputs), ratio(t.Valid, t.Outputs), ratio(t.WithinBudget, t.Outputs), ratio(t.AllCountsStated, t.Outputs),
			pct(t.Inline, t.Questions), pct(t.FollowUp, t.Questions), pct(t.Answerable, t.Questions), levelsText(t.Levels))
	}
	return tw.Flush()
}

func levelsText(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return levelRank(keys[i]) < levelRank(keys[j]) })
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// levelRank orders levels as the pipeline tries them.
func levelRank(l string) int {
	switch l {
	case "none":
		return 0
	case "fields":
		return 1
	case "artifact":
		return 2
	case "hints":
		return 3
	case "truncate":
		return 4
	}
	return 5
}

// WriteMarkdown writes the totals of each budget as a Markdown table, and
// compact's per-output results at each budget, for docs/bench.md.
func (r *Report) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	for _, bud := range r.Budgets {
		fmt.Fprintf(&b, "### Budget %s tokens\n\n", group(bud))
		b.WriteString("| strategy | tokens shown | saved vs raw | valid | within budget | every count stated | answer visible | + one query | answerable |\n")
		b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, t := range r.Totals {
			if t.Budget != bud {
				continue
			}
			fmt.Fprintf(&b, "| %s | %s | %.1f%% | %s | %s | %s | %s | %s | %s |\n", t.Strategy, group(t.Tokens), 100*t.Saved,
				ratio(t.Valid, t.Outputs), ratio(t.WithinBudget, t.Outputs), ratio(t.AllCountsStated, t.Outputs),
				pct(t.Inline, t.Questions), pct(t.FollowUp, t.Questions), pct(t.Answerable, t.Questions))
		}
		b.WriteString("\n")
	}
	for _, bud := range r.Budgets {
		fmt.Fprintf(&b, "### compact per output at %s tokens\n\n", group(bud))
		b.WriteString("| output | raw tokens | shown | level | valid | counts stated | visible | + one query | answerable | unanswered |\n")
		b.WriteString("|---|--:|--:|---|---|--:|--:|--:|--:|---|\n")
		raw := map[string]int{}
		for _, o := range r.Outputs {
			raw[o.Name] = o.RawTokens
		}
		for _, res := range r.Results {
			if res.Budget != bud || res.Strategy != StrategyCompact {
				continue
			}
			valid := yesNo(res.Valid)
			if !res.Valid && res.Invalid != "" {
				valid = "no: " + mdEscape(clipText(res.Invalid, 60))
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", res.Output, group(raw[res.Output]), group(res.Tokens),
				res.Level, valid, ratio(res.CountsStated, res.Counts), ratio(res.Inline, res.Questions),
				ratio(res.FollowUp, res.Questions), ratio(res.Answerable, res.Questions), mdEscape(strings.Join(res.Unanswerable, ", ")))
		}
		b.WriteString("\n")
	}
	if faults := r.PluginFaults(); len(faults) > 0 {
		fmt.Fprintf(&b, "**Plugin faults** (the declarative rules ran in their place):\n\n")
		for _, f := range faults {
			fmt.Fprintf(&b, "- %s\n", mdEscape(f))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdEscape(s string) string {
	return strings.ReplaceAll(s, "|", `\|`)
}

// TargetSaved is the share of raw tokens compact must save across a corpus.
const TargetSaved = 0.60

// CheckTargets checks compact's results against the targets at every
// budget of the report: every output shown, valid and within budget,
// every true count stated, every question answerable inline or with one
// query, and at least TargetSaved fewer tokens than the raw outputs. It
// returns one line per miss, naming the output and why.
func (r *Report) CheckTargets() []string {
	var misses []string
	for _, res := range r.Results {
		if res.Strategy != StrategyCompact {
			continue
		}
		at := fmt.Sprintf("%s at %s tokens", res.Output, group(res.Budget))
		switch {
		case !res.Shown:
			misses = append(misses, fmt.Sprintf("%s: nothing shown (%s)", at, res.Level))
			continue
		case !res.WithinBudget:
			misses = append(misses, fmt.Sprintf("%s: %s tokens, over the budget", at, group(res.Tokens)))
		}
		if !res.Valid {
			misses = append(misses, fmt.Sprintf("%s: not valid %s: %s", at, res.Format, res.Invalid))
		}
		if res.CountsStated < res.Counts {
			misses = append(misses, fmt.Sprintf("%s: counts not stated: %s", at, strings.Join(res.CountsMissing, ", ")))
		}
		if res.Answerable < res.Questions {
			misses = append(misses, fmt.Sprintf("%s: %d of %d questions neither visible nor answered by one query: %s", at,
				res.Questions-res.Answerable, res.Questions, strings.Join(res.Unanswerable, ", ")))
		}
	}
	for _, t := range r.Totals {
		if t.Strategy == StrategyCompact && t.Saved < TargetSaved {
			misses = append(misses, fmt.Sprintf("corpus at %s tokens: %.1f%% fewer tokens than raw, want at least %.0f%%", group(t.Budget), 100*t.Saved, 100*TargetSaved))
		}
	}
	return misses
}
