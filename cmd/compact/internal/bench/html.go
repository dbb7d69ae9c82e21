package bench

import (
	"fmt"
	"html/template"
	"io"
)

// htmlData is what the HTML template renders.
type htmlData struct {
	R       *Report
	Charts  []template.HTML
	Budgets []budgetTable
	// Faults are Report.PluginFaults, shown above the charts.
	Faults []string
	// Goals are Report.Goals; Categories the per-category table (a header
	// row, then one row per category) as in the Markdown report.
	Goals      []Goal
	Categories [][]string
}

type budgetTable struct {
	Budget  int
	Totals  []Total
	Results []Result
}

// WriteHTML writes a self-contained HTML report: charts as inline SVG
// (tokens saved per tool, questions answered per strategy, levels taken),
// the totals and every result. It loads nothing from the network.
func (r *Report) WriteHTML(w io.Writer) error {
	var charts []template.HTML

	// Tokens saved per tool by compact, one bar per budget.
	var names []string
	for _, o := range r.Outputs {
		names = append(names, o.Name+" ("+o.Tool+")")
	}
	var saved []series
	for _, b := range r.Budgets {
		s := series{name: group(b) + " tokens"}
		for _, o := range r.Outputs {
			v := 0.0
			for _, res := range r.Results {
				if res.Output == o.Name && res.Budget == b && res.Strategy == StrategyCompact && o.RawTokens > 0 {
					v = 100 * (1 - float64(res.Tokens)/float64(o.RawTokens))
				}
			}
			s.values = append(s.values, v)
		}
		saved = append(saved, s)
	}
	c, err := barChart("Tokens saved by compact vs the raw output, per output (tool)", "% of raw tokens saved", names, saved, false, true, 100)
	if err != nil {
		return err
	}
	charts = append(charts, c)

	// Questions answered per strategy, at each budget: inline, and inline
	// or with one query.
	var strat []string
	for _, s := range r.Strategies {
		strat = append(strat, string(s))
	}
	for _, b := range r.Budgets {
		inl := series{name: "answer visible in what is shown (field-aware)"}
		fol := series{name: "+ answered by one query the model could write from it"}
		for _, s := range r.Strategies {
			t, _ := r.Total(b, s)
			q := float64(max(t.Questions, 1))
			inl.values = append(inl.values, 100*float64(t.FromView)/q)
			fol.values = append(fol.values, 100*float64(t.ViewAnswerable-t.FromView)/q)
		}
		c, err := barChart(fmt.Sprintf("Questions answerable per strategy at %s tokens", group(b)), "% of questions", strat, []series{inl, fol}, true, false, 100)
		if err != nil {
			return err
		}
		charts = append(charts, c)
	}

	// Levels compact took, per budget.
	levels := map[string]bool{}
	for _, t := range r.Totals {
		for l := range t.Levels {
			levels[l] = true
		}
	}
	var lv []string
	for l := range levels {
		lv = append(lv, l)
	}
	sortLevels(lv)
	var bnames []string
	for _, b := range r.Budgets {
		bnames = append(bnames, group(b)+" tokens")
	}
	var ls []series
	for _, l := range lv {
		s := series{name: l}
		for _, b := range r.Budgets {
			t, _ := r.Total(b, StrategyCompact)
			s.values = append(s.values, float64(t.Levels[l]))
		}
		ls = append(ls, s)
	}
	if len(ls) > 0 {
		c, err := barChart("Levels compact took (outputs per level)", "outputs", bnames, ls, true, false, float64(len(r.Outputs)))
		if err != nil {
			return err
		}
		charts = append(charts, c)
	}

	d := htmlData{R: r, Charts: charts, Faults: r.PluginFaults(), Goals: r.Goals(), Categories: r.categoryRows()}
	for _, b := range r.Budgets {
		bt := budgetTable{Budget: b}
		for _, t := range r.Totals {
			if t.Budget == b {
				bt.Totals = append(bt.Totals, t)
			}
		}
		for _, res := range r.Results {
			if res.Budget == b {
				bt.Results = append(bt.Results, res)
			}
		}
		d.Budgets = append(d.Budgets, bt)
	}
	if err := htmlTmpl.Execute(w, d); err != nil {
		return fmt.Errorf("bench HTML report: %w", err)
	}
	return nil
}

func sortLevels(l []string) {
	for i := 1; i < len(l); i++ {
		for j := i; j > 0 && (levelRank(l[j]) < levelRank(l[j-1]) || levelRank(l[j]) == levelRank(l[j-1]) && l[j] < l[j-1]); j-- {
			l[j], l[j-1] = l[j-1], l[j]
		}
	}
}

var htmlTmpl = template.Must(template.New("report").Funcs(template.FuncMap{
	"group":  group,
	"pct":    pct,
	"ratio":  ratio,
	"saved":  func(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) },
	"levels": levelsText,
	"first":  func(s Strategy) bool { return s == StrategyCompact },
}).Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>compact bench</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:1100px;color:#222;padding:0 1em}
h1{font-size:1.6em}h2{font-size:1.25em;margin-top:2em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:1em 0;font-size:.85em}
th,td{border:1px solid #ddd;padding:.25em .5em;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}
tr.compact td{background:#eef6ff}
.bad{color:#b00}.note{color:#666;font-size:.85em}
svg{max-width:100%;height:auto;display:block;margin:1em 0}
</style></head><body>
<h1>compact bench</h1>
<p>{{len .R.Outputs}} outputs{{if .R.Corpus}} of <code>{{.R.Corpus}}</code>{{end}}; tokens counted exactly with <code>{{.R.Encoding}}</code>;
char-cut at {{.R.CharsPerToken}} characters per token; preview of {{group .R.PreviewChars}} characters.
An answer is <em>from the view</em> when the ground-truth value (jq over the original) appears in what is shown at word boundaries, near the record the question names;
<em>+1 model query</em> counts those one query the model could write from what it is shown reveals (a query the view suggests, or a search for the record);
<em>oracle query</em> counts the questions whose own jq filter, run through the artifact query path, returns exactly the ground truth; <em>loose</em> is the answer anywhere at word boundaries.</p>
{{if .Faults}}<h2 id="plugin-faults" class="bad">Plugin faults: {{len .Faults}}</h2>
<p>compact's figures below for these outputs come from the declarative rules, which ran in the plugin's place.</p>
<ul class="faults">{{range .Faults}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Goals}}<h2 id="goals">The view's goals</h2>
<table><tr><th class="l">goal</th><th>compact</th><th>target</th><th class="l">verdict</th></tr>
{{range .Goals}}<tr><td class="l">{{.Name}}</td><td>{{.Value}}</td><td>{{.Target}}</td><td class="l">{{if .Met}}met{{else}}<span class="bad">not met</span>{{end}}</td></tr>
{{end}}</table>{{end}}
{{if .Categories}}<h2 id="categories">Answered from the view, per question category</h2>
<table>{{range $i, $row := .Categories}}<tr>{{range $j, $c := $row}}{{if eq $i 0}}<th{{if eq $j 0}} class="l"{{end}}>{{$c}}</th>{{else}}<td{{if eq $j 0}} class="l"{{end}}>{{$c}}</td>{{end}}{{end}}</tr>
{{end}}</table>{{end}}
{{range .Charts}}{{.}}{{end}}
{{range .Budgets}}
<h2 id="totals-{{.Budget}}">Budget {{group .Budget}} tokens: totals</h2>
<table><tr><th class="l">strategy</th><th>tokens shown</th><th>saved vs raw</th><th>shown</th><th>valid</th><th>within budget</th><th>every count stated</th><th>from the view</th><th>+1 model query</th><th>answerable</th><th>loose</th><th>oracle query</th><th>monotonicity violations</th><th class="l">levels</th><th>wall ms</th></tr>
{{range .Totals}}<tr{{if first .Strategy}} class="compact"{{end}}><td class="l">{{.Strategy}}</td><td>{{group .Tokens}}</td><td>{{saved .Saved}}</td><td>{{ratio .Shown .Outputs}}</td><td>{{ratio .Valid .Outputs}}</td><td>{{ratio .WithinBudget .Outputs}}</td><td>{{ratio .AllCountsStated .Outputs}}</td><td>{{pct .FromView .Questions}}</td><td>{{pct .ViewQuery .Questions}}</td><td>{{pct .ViewAnswerable .Questions}}</td><td>{{pct .Inline .Questions}}</td><td>{{pct .FollowUp .Questions}}</td><td>{{.Violations}}</td><td class="l">{{levels .Levels}}</td><td>{{printf "%.0f" .WallMS}}</td></tr>
{{end}}</table>
<h2 id="outputs-{{.Budget}}">Budget {{group .Budget}} tokens: every output</h2>
<table><tr><th class="l">output</th><th class="l">strategy</th><th>tokens</th><th>within budget</th><th class="l">valid</th><th>counts stated</th><th>from the view</th><th>+1 model query</th><th>answerable</th><th>oracle query</th><th class="l">level</th><th class="l">not answered from the view</th></tr>
{{range .Results}}<tr{{if first .Strategy}} class="compact"{{end}}><td class="l">{{if first .Strategy}}{{.Output}}{{end}}</td><td class="l">{{.Strategy}}</td>
<td>{{if .Shown}}{{group .Tokens}}{{else}}–{{end}}</td><td>{{if .Shown}}{{if .WithinBudget}}yes{{else}}<span class="bad">no</span>{{end}}{{else}}–{{end}}</td>
<td class="l">{{if not .Shown}}– <span class="note">{{.Invalid}}</span>{{else if .Valid}}yes{{else}}<span class="bad">no</span> <span class="note">{{.Invalid}}</span>{{end}}</td>
<td>{{ratio .CountsStated .Counts}}</td><td>{{ratio .FromView .Questions}}</td><td>{{ratio .ViewQuery .Questions}}</td><td>{{ratio .ViewAnswerable .Questions}}</td><td>{{ratio .FollowUp .Questions}}</td><td class="l">{{.Level}}</td>
<td class="l note">{{range $i, $id := .NotFromView}}{{if $i}}, {{end}}{{$id}}{{end}}</td></tr>
{{end}}</table>
{{end}}
</body></html>
`))
