package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/itchyny/gojq"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/host"
	"github.com/toolcompact/compact/schemas"
)

// FollowUpFunc runs one jq filter on a stored artifact and returns the
// answer shown to the model and the number of jq outputs. It is the
// follow-up query a model makes through a handle: the harness uses the
// same code as `compact artifact query HANDLE --jq FILTER`.
type FollowUpFunc func(ctx context.Context, handle, filter string, tokens int) (content string, outputs int, err error)

// EngineFollowUp returns the follow-up query of eng: Engine.ArtifactJQ,
// the code `compact artifact query HANDLE --jq FILTER` runs, over the
// engine's artifact store.
func EngineFollowUp(eng *host.Engine) FollowUpFunc {
	return func(ctx context.Context, handle, filter string, tokens int) (string, int, error) {
		a, err := eng.ArtifactJQ(ctx, handle, filter, tokens)
		if err != nil {
			return "", 0, err
		}
		return a.Content, a.Total, nil
	}
}

// Harness runs every strategy on every output of a corpus at each budget
// and measures what the model is shown.
type Harness struct {
	// Engine runs the compact strategy. It needs an artifact store for
	// the artifact level and the follow-up queries.
	Engine *host.Engine
	// FollowUp answers follow-up queries; nil means EngineFollowUp (none
	// when the engine has no store).
	FollowUp FollowUpFunc
	// Budgets are the token budgets, each run separately.
	Budgets []int
	// CharsPerToken is the char-cut ratio (DefaultCharsPerToken if 0).
	CharsPerToken int
	// PreviewChars is the preview size (DefaultPreviewChars if 0).
	PreviewChars int
	// PreviewDir is where preview+file saves whole outputs; "" means a
	// fixed directory under os.TempDir, whose files are removed at the
	// end of Run.
	PreviewDir string
	// Progress, when set, is called after each output × budget step.
	Progress func(done, total int, what string)
}

// Report is the result of a harness run. Apart from the wall times
// (WallMS, FollowUpMS) it is the same on every run over the same corpus,
// registry and budgets.
type Report struct {
	// Corpus is the corpus directory, when known.
	Corpus string `json:"corpus,omitempty"`
	// Encoding is the tokenizer encoding every count uses.
	Encoding      string     `json:"encoding"`
	CharsPerToken int        `json:"chars_per_token"`
	PreviewChars  int        `json:"preview_chars"`
	Budgets       []int      `json:"budgets"`
	Strategies    []Strategy `json:"strategies"`
	// Outputs describe the corpus, sorted by name.
	Outputs []OutputInfo `json:"outputs"`
	// Results hold one measure per output × budget × strategy, in that
	// order (outputs by name, budgets ascending, strategies as listed).
	Results []Result `json:"results"`
	// Totals sum the results per budget × strategy.
	Totals []Total `json:"totals"`
	// ByCategory sums the questions per budget × strategy × category
	// (see Categories), in that order; categories without questions are
	// left out.
	ByCategory []CategoryTotal `json:"by_category,omitempty"`
	// Violations list every question answerable from what a strategy
	// shows at a smaller budget but not at a larger one (by the
	// field-aware rule), per output and strategy.
	Violations []Violation `json:"monotonicity_violations,omitempty"`
}

// CategoryTotal sums one category of questions for one strategy at one
// budget.
type CategoryTotal struct {
	Budget    int      `json:"budget"`
	Strategy  Strategy `json:"strategy"`
	Category  Category `json:"category"`
	Questions int      `json:"questions"`
	// FromView and ViewAnswerable are as in Result.
	FromView       int `json:"from_view"`
	ViewAnswerable int `json:"view_answerable"`
}

// Violation is one question a strategy answers (from what it shows, by
// the field-aware rule) at budget Smaller but not at budget Larger.
type Violation struct {
	Output   string   `json:"output"`
	Strategy Strategy `json:"strategy"`
	Question string   `json:"question"`
	Smaller  int      `json:"smaller"`
	Larger   int      `json:"larger"`
}

// OutputInfo describes one output of the corpus.
type OutputInfo struct {
	Name  string `json:"name"`
	Tool  string `json:"tool"`
	Input Input  `json:"input"`
	Bytes int    `json:"bytes"`
	Chars int    `json:"chars"`
	// RawTokens is the exact token count of the whole output.
	RawTokens int `json:"raw_tokens"`
	Questions int `json:"questions"`
	// QuestionCategories gives each question's category by id.
	QuestionCategories map[string]Category `json:"question_categories,omitempty"`
	// Collections are the record collections of the output as
	// budget.DetectShape finds them without registry paths, with their
	// exact counts: the counts that must be stated.
	Collections []CollectionCount `json:"collections"`
}

// CollectionCount is one collection's true record count.
type CollectionCount struct {
	Path  string `json:"path"`
	Kind  string `json:"kind"`
	Count int    `json:"count"`
}

// Result measures one strategy on one output at one budget.
type Result struct {
	Output   string   `json:"output"`
	Tool     string   `json:"tool"`
	Budget   int      `json:"budget"`
	Strategy Strategy `json:"strategy"`
	// Shown is false when nothing is shown (raw over its budget).
	Shown bool `json:"shown"`
	// Tokens is the exact token count of what is shown.
	Tokens int `json:"tokens"`
	// WithinBudget: Tokens <= Budget.
	WithinBudget bool `json:"within_budget"`
	// Format is the format the shown text claims; Valid says whether it
	// is well-formed as that format, Invalid why not.
	Format  Format `json:"format"`
	Valid   bool   `json:"valid"`
	Invalid string `json:"invalid,omitempty"`
	// Counts is the number of collections; CountsStated how many of their
	// true counts are visible in what is shown; CountsMissing lists the
	// others as "path=count".
	Counts        int      `json:"counts"`
	CountsStated  int      `json:"counts_stated"`
	CountsMissing []string `json:"counts_missing,omitempty"`
	// Questions is the number of questions; Inline how many answers are
	// visible in what is shown; FollowUp how many one follow-up jq query
	// through the handle answers exactly; Answerable how many are either.
	Questions  int `json:"questions"`
	Inline     int `json:"inline"`
	FollowUp   int `json:"follow_up"`
	Answerable int `json:"answerable"`
	// Unanswerable lists the ids of the questions that are neither.
	Unanswerable []string `json:"unanswerable,omitempty"`
	// FromView is how many answers are visible in what is shown by the
	// field-aware rule (Answer.VisibleFor: near the record's identifier
	// when the question names one). Inline above is the older, looser
	// rule (anywhere at word boundaries), kept for comparison.
	FromView int `json:"from_view"`
	// ViewQuery is how many answers one query a model could write from
	// what it is shown reveals, by the same rule: a query the view
	// suggests, such a jq query adapted to the record the question names
	// (its compared string replaced), or a search for that record (over
	// the artifact, or over preview+file's saved file). It never uses the
	// question's own filter (FollowUp does).
	ViewQuery int `json:"view_query"`
	// ViewAnswerable is how many are FromView or ViewQuery.
	ViewAnswerable int `json:"view_answerable"`
	// FromViewIDs and ViewAnswerableIDs list those questions' ids.
	FromViewIDs       []string `json:"from_view_ids,omitempty"`
	ViewAnswerableIDs []string `json:"view_answerable_ids,omitempty"`
	// NotFromView lists the ids of the questions not answered from what
	// is shown.
	NotFromView []string `json:"not_from_view,omitempty"`
	// SuggestedQueries are the follow-up queries the view suggests (as
	// commands), each run once; SuggestedFailed say which failed, why.
	SuggestedQueries []string  `json:"suggested_queries,omitempty"`
	SuggestedFailed  []Failure `json:"suggested_failed,omitempty"`
	// FollowUpFailures say why follow-up queries failed, one per question.
	FollowUpFailures []Failure `json:"follow_up_failures,omitempty"`
	// Handle is the artifact handle shown (compact only).
	Handle string `json:"handle,omitempty"`
	// Level is the compact result's level; Notes list its plugin faults.
	Level string   `json:"level,omitempty"`
	Notes []string `json:"notes,omitempty"`
	// WallMS is the time the strategy took to make what is shown;
	// FollowUpMS the time of all follow-up queries.
	WallMS     float64 `json:"wall_ms"`
	FollowUpMS float64 `json:"follow_up_ms,omitempty"`
}

// Failure is one question a follow-up query did not answer, and why.
type Failure struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

// Total sums the results of one strategy at one budget.
type Total struct {
	Budget   int      `json:"budget"`
	Strategy Strategy `json:"strategy"`
	Outputs  int      `json:"outputs"`
	// Shown, Valid and WithinBudget count outputs; Valid and WithinBudget
	// only count outputs that show something.
	Shown        int `json:"shown"`
	Valid        int `json:"valid"`
	WithinBudget int `json:"within_budget"`
	// AllCountsStated counts outputs whose every true count is stated;
	// Counts and CountsStated sum the collections.
	AllCountsStated int `json:"all_counts_stated"`
	Counts          int `json:"counts"`
	CountsStated    int `json:"counts_stated"`
	Questions       int `json:"questions"`
	Inline          int `json:"inline"`
	FollowUp        int `json:"follow_up"`
	Answerable      int `json:"answerable"`
	// FromView, ViewQuery and ViewAnswerable sum the results' (the
	// field-aware measures); Suggested and SuggestedFailed count the
	// view's suggested queries and those that failed to run; Violations
	// counts the monotonicity violations of the strategy (the same in
	// every budget's total).
	FromView        int `json:"from_view"`
	ViewQuery       int `json:"view_query"`
	ViewAnswerable  int `json:"view_answerable"`
	Suggested       int `json:"suggested"`
	SuggestedFailed int `json:"suggested_failed"`
	Violations      int `json:"monotonicity_violations"`
	// Tokens sums what is shown, RawTokens the whole outputs of the same
	// results (those that show something); Saved is 1 - Tokens/RawTokens.
	Tokens    int     `json:"tokens"`
	RawTokens int     `json:"raw_tokens"`
	Saved     float64 `json:"saved"`
	// Levels counts compact's results by level.
	Levels map[string]int `json:"levels,omitempty"`
	WallMS float64        `json:"wall_ms"`
}

// loaded is one output with its ground truth.
type loaded struct {
	qf      *QuestionFile
	answers []Answer
	info    OutputInfo
}

// prepare reads every output and computes its ground truth and true
// counts. Every problem of every file is reported at once, naming the
// file, the question's line and its id.
func prepare(ctx context.Context, files []*QuestionFile, ctr budget.Counter) ([]*loaded, error) {
	var out []*loaded
	var errs []error
	for _, qf := range files {
		data, err := qf.ReadOutput()
		if err != nil {
			errs = append(errs, err)
			continue
		}
		answers, err := qf.AnswerContext(ctx, data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		shape, err := budget.DetectShape(data, nil)
		if err != nil {
			errs = append(errs, &QuestionError{File: qf.Path, Err: fmt.Errorf("output %q: %w", qf.Output, err)})
			continue
		}
		info := OutputInfo{
			Name: qf.Output, Tool: qf.Tool, Input: qf.Input,
			Bytes: len(data), Chars: utf8.RuneCount(data),
			RawTokens: ctr.Count(string(data)),
			Questions: len(qf.Questions),
		}
		for _, a := range answers {
			if info.QuestionCategories == nil {
				info.QuestionCategories = map[string]Category{}
			}
			info.QuestionCategories[a.ID] = a.Category
		}
		for _, c := range shape.Collections {
			info.Collections = append(info.Collections, CollectionCount{Path: c.Path, Kind: c.Kind, Count: c.Count})
		}
		out = append(out, &loaded{qf: qf, answers: answers, info: info})
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].info.Name < out[j].info.Name })
	return out, nil
}

// Run measures every strategy on every file at every budget.
func (h *Harness) Run(ctx context.Context, files []*QuestionFile) (*Report, error) {
	if h.Engine == nil {
		return nil, errors.New("bench: no engine")
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("bench: %w", ErrEmptyCorpus)
	}
	budgets := normBudgets(h.Budgets)
	if len(budgets) == 0 {
		return nil, errors.New("bench: no budgets (want at least one positive number of tokens)")
	}
	ctr := h.Engine.Counter()
	follow := h.FollowUp
	if follow == nil && h.Engine.Store() != nil {
		follow = EngineFollowUp(h.Engine)
	}
	cpt := h.CharsPerToken
	if cpt <= 0 {
		cpt = DefaultCharsPerToken
	}
	pchars := h.PreviewChars
	if pchars <= 0 {
		pchars = DefaultPreviewChars
	}
	pdir := h.PreviewDir
	if pdir == "" {
		// A fixed directory keeps the preview's note (which names the
		// file) the same on every run. Only the files are removed at the
		// end, never the directory: a concurrent run removing it made
		// another run's preview fail mid-run.
		pdir = filepath.Join(os.TempDir(), "compact-bench-previews")
		defer func() {
			for _, f := range files {
				os.Remove(filepath.Join(pdir, filepath.Base(f.Output)))
			}
		}()
	}

	outs, err := prepare(ctx, files, ctr)
	if err != nil {
		return nil, err
	}
	rep := &Report{Encoding: ctr.Encoding(), CharsPerToken: cpt, PreviewChars: pchars, Budgets: budgets, Strategies: Strategies}
	total := len(outs) * len(budgets)
	done := 0
	for _, o := range outs {
		rep.Outputs = append(rep.Outputs, o.info)
		data, err := o.qf.ReadOutput()
		if err != nil {
			return nil, err
		}
		for _, b := range budgets {
			for _, s := range Strategies {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				r, err := h.measure(ctx, o, data, b, s, cpt, pchars, pdir, ctr, follow)
				if err != nil {
					return nil, fmt.Errorf("%s: %s at %d tokens: %w", o.qf.Path, s, b, err)
				}
				rep.Results = append(rep.Results, r)
			}
			done++
			if h.Progress != nil {
				h.Progress(done, total, fmt.Sprintf("%s @%d", o.info.Name, b))
			}
		}
	}
	rep.Violations = violations(rep)
	rep.Totals = totals(rep)
	rep.ByCategory = byCategory(rep)
	return rep, nil
}

func normBudgets(in []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, b := range in {
		if b > 0 && !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	sort.Ints(out)
	return out
}

// show runs one strategy.
func (h *Harness) show(ctx context.Context, o *loaded, data []byte, b int, s Strategy, cpt, pchars int, pdir string, ctr budget.Counter) (shown, error) {
	orig := string(data)
	claim := formatOf(o.qf.Input)
	switch s {
	case StrategyCompact:
		res, err := compactSafely(ctx, h.Engine, host.Request{Tool: o.qf.Tool, Input: data, Budget: b})
		if err != nil {
			if ctx.Err() != nil {
				return shown{}, ctx.Err()
			}
			// A failure of compact is a measured result, not the end of
			// the run: it shows nothing and says why.
			level := "error"
			if errors.Is(err, budget.ErrCannotFit) {
				level = "cannot_fit"
			}
			return shown{claim: FormatNone, level: level, actions: []string{firstLineOf(err.Error())}}, nil
		}
		// Level 1, and level none with facts, start with a notice line;
		// the payload after it is what claims the format.
		body := res.Content
		if res.Level == schemas.LevelFields || res.Level == schemas.LevelNone {
			_, body = budget.SplitNotice(res.Content)
		}
		sh := shown{content: res.Content, body: body, fits: true, level: string(res.Level)}
		sh.claim = contentFormat(body, string(res.Level), res.ContentType, claim)
		if res.Artifact != nil {
			sh.handle = res.Artifact.Handle
		}
		for _, a := range res.Actions {
			if strings.HasPrefix(a.Kind, "plugin_") {
				sh.actions = append(sh.actions, a.Kind+" "+a.Target+": "+firstLineOf(a.Detail))
			}
		}
		return sh, nil
	case StrategyCharCut:
		return charCut(orig, claim, b, cpt), nil
	case StrategyTokenCut:
		return tokenCut(orig, claim, b, ctr), nil
	case StrategyFirstRows:
		return firstRows(data, claim, b, ctr)
	case StrategyPreview:
		sh, err := previewFile(orig, claim, pchars, filepath.Join(pdir, filepath.Base(o.qf.Output)))
		if err != nil || sh.body == orig {
			return sh, err
		}
		// The same query ability over its file as compact's artifact:
		// the saved file goes into the store, and searches for a
		// question's record run through the same query path.
		if st := h.Engine.Store(); st != nil {
			hd, _, err := st.Put(ctx, strings.NewReader(orig), budget.Meta{Tool: o.qf.Tool})
			if err != nil {
				return shown{}, fmt.Errorf("preview: store the file: %w", err)
			}
			sh.fileHandle = string(hd)
		}
		return sh, nil
	case StrategyHeadTail:
		return headTail(orig, claim, b, ctr), nil
	case StrategyRaw:
		if o.info.RawTokens <= b {
			return shown{content: orig, body: orig, claim: claim, fits: true}, nil
		}
		return shown{claim: FormatNone}, nil
	}
	return shown{}, fmt.Errorf("unknown strategy %q", s)
}

func (h *Harness) measure(ctx context.Context, o *loaded, data []byte, b int, s Strategy, cpt, pchars int, pdir string, ctr budget.Counter, follow FollowUpFunc) (Result, error) {
	start := time.Now()
	sh, err := h.show(ctx, o, data, b, s, cpt, pchars, pdir, ctr)
	wall := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	r := Result{
		Output: o.info.Name, Tool: o.info.Tool, Budget: b, Strategy: s,
		Shown: sh.fits && sh.claim != FormatNone, Format: sh.claim,
		Handle: sh.handle, Level: sh.level, Notes: sh.actions,
		Questions: len(o.answers), Counts: len(o.info.Collections),
		WallMS: float64(wall.Microseconds()) / 1000,
	}
	if r.Shown {
		r.Tokens = ctr.Count(sh.content)
		r.WithinBudget = r.Tokens <= b
		r.Valid, r.Invalid = sh.claim.Valid(sh.body)
	} else {
		r.Invalid = "nothing shown"
		if len(sh.actions) > 0 {
			r.Invalid = sh.actions[0]
		}
		if sh.claim == FormatNone && s == StrategyRaw {
			r.Invalid = fmt.Sprintf("not shown: the output is %s tokens, over the budget", group(o.info.RawTokens))
		}
	}
	for _, c := range o.info.Collections {
		a := Answer{Needles: []string{strconv.Itoa(c.Count)}}
		if r.Shown && a.VisibleIn(sh.content) {
			r.CountsStated++
		} else {
			r.CountsMissing = append(r.CountsMissing, fmt.Sprintf("%s=%d", c.Path, c.Count))
		}
	}
	var fstart time.Time
	if sh.handle != "" && follow != nil {
		fstart = time.Now()
	}
	h.viewMeasures(ctx, &r, o, sh, b)
	for i, a := range o.answers {
		// Inline is the loose measure: a needle anywhere, or the
		// field-aware one where it reads more (a short list shown whole
		// is counted by the reader; its count is written nowhere).
		inline := r.Shown && (a.VisibleIn(sh.content) || a.VisibleFor(sh.content))
		if inline {
			r.Inline++
		}
		followed := false
		if sh.handle != "" && follow != nil {
			ok, why := followUp(ctx, follow, sh.handle, o.qf.Input, o.qf.Questions[questionIndex(o.qf, a.ID, i)].JQ, a, b)
			if ok {
				r.FollowUp++
				followed = true
			} else {
				r.FollowUpFailures = append(r.FollowUpFailures, Failure{ID: a.ID, Reason: why})
			}
		}
		if inline || followed {
			r.Answerable++
		} else {
			r.Unanswerable = append(r.Unanswerable, a.ID)
		}
	}
	if !fstart.IsZero() {
		r.FollowUpMS = float64(time.Since(fstart).Microseconds()) / 1000
	}
	return r, nil
}

func questionIndex(qf *QuestionFile, id string, guess int) int {
	if guess < len(qf.Questions) && qf.Questions[guess].ID == id {
		return guess
	}
	for i, q := range qf.Questions {
		if q.ID == id {
			return i
		}
	}
	return guess
}

// followUp runs a question's filter through the artifact query path on the
// stored artifact and compares the answer with the ground truth. The
// filter is run as written: the query path must feed the artifact to jq as
// the questions file's input mode says (a JSON value as itself, a stream
// of values as one array, text as an array of lines), so a query path
// that feeds it differently shows up as failures with their reasons.
func followUp(ctx context.Context, follow FollowUpFunc, handle string, mode Input, filter string, truth Answer, tokens int) (bool, string) {
	content, outputs, err := follow(ctx, handle, filter, tokens)
	if err != nil {
		return false, firstLineOf(err.Error())
	}
	if outputs != 1 {
		return false, fmt.Sprintf("the query gave %d outputs, want 1 (is the %s artifact fed to jq as the questions' input %q says?)", outputs, mode, mode)
	}
	got, err := canonicalJSON(content)
	if err != nil {
		return false, fmt.Sprintf("the answer is not one JSON value (%v): %s", err, clipText(content, 80))
	}
	want, err := gojq.Marshal(truth.Value)
	if err != nil {
		return false, err.Error()
	}
	if got != string(want) {
		return false, fmt.Sprintf("answer %s, ground truth %s", clipText(got, 80), clipText(string(want), 80))
	}
	return true, ""
}

// canonicalJSON re-encodes one JSON text as gojq prints it.
func canonicalJSON(s string) (string, error) {
	dec := newNumberDecoder([]byte(s))
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	if dec.More() {
		return "", errors.New("more than one value")
	}
	v = normalizeNumbers(v)
	b, err := gojq.Marshal(v)
	return string(b), err
}

// normalizeNumbers turns json.Number into the int or float64 gojq uses,
// as the ground truth's decoding does through gojq arithmetic.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.Atoi(x.String()); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	case []any:
		for i := range x {
			x[i] = normalizeNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeNumbers(x[k])
		}
	}
	return v
}

func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return clipText(s, 240)
}

// totals sums results per budget × strategy, in report order.
func totals(rep *Report) []Total {
	raw := map[string]int{}
	for _, o := range rep.Outputs {
		raw[o.Name] = o.RawTokens
	}
	idx := map[string]int{}
	var ts []Total
	for _, b := range rep.Budgets {
		for _, s := range rep.Strategies {
			idx[fmt.Sprint(b, s)] = len(ts)
			ts = append(ts, Total{Budget: b, Strategy: s})
		}
	}
	for _, r := range rep.Results {
		t := &ts[idx[fmt.Sprint(r.Budget, r.Strategy)]]
		t.Outputs++
		if r.Shown {
			t.Shown++
			if r.Valid {
				t.Valid++
			}
			if r.WithinBudget {
				t.WithinBudget++
			}
		}
		if r.CountsStated == r.Counts {
			t.AllCountsStated++
		}
		t.Counts += r.Counts
		t.CountsStated += r.CountsStated
		t.Questions += r.Questions
		t.Inline += r.Inline
		t.FollowUp += r.FollowUp
		t.Answerable += r.Answerable
		t.FromView += r.FromView
		t.ViewQuery += r.ViewQuery
		t.ViewAnswerable += r.ViewAnswerable
		t.Suggested += len(r.SuggestedQueries)
		t.SuggestedFailed += len(r.SuggestedFailed)
		if r.Shown {
			t.Tokens += r.Tokens
			t.RawTokens += raw[r.Output]
		}
		if r.Level != "" {
			if t.Levels == nil {
				t.Levels = map[string]int{}
			}
			t.Levels[r.Level]++
		}
		t.WallMS += r.WallMS
	}
	for _, v := range rep.Violations {
		for i := range ts {
			if ts[i].Strategy == v.Strategy {
				ts[i].Violations++
			}
		}
	}
	for i := range ts {
		if ts[i].RawTokens > 0 {
			ts[i].Saved = 1 - float64(ts[i].Tokens)/float64(ts[i].RawTokens)
		}
	}
	return ts
}

// compactSafely runs the engine and turns a panic into an error, so that
// one crashing output is reported as a failed result instead of ending
// the whole run.
func compactSafely(ctx context.Context, eng *host.Engine, req host.Request) (res schemas.Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("compact panicked (a bug, please report): %v", p)
		}
	}()
	return eng.Compact(ctx, req)
}

// viewMeasures fills the field-aware measures of r: which answers are
// visible from what is shown, and which one query a model could write
// from it reveals (a query the view suggests, or a search for the
// question's record over the artifact or preview+file's saved file).
func (h *Harness) viewMeasures(ctx context.Context, r *Result, o *loaded, sh shown, b int) {
	handle := sh.handle
	if handle == "" {
		handle = sh.fileHandle
	}
	var results []string // contents of the view's suggested queries
	var suggested []ModelQuery
	if r.Shown && sh.handle != "" {
		suggested = SuggestedQueries(sh.content, sh.handle)
		for _, q := range suggested {
			r.SuggestedQueries = append(r.SuggestedQueries, q.String())
			c, err := runModelQuery(ctx, h.Engine, q, b)
			if err != nil {
				r.SuggestedFailed = append(r.SuggestedFailed, Failure{ID: q.String(), Reason: firstLineOf(err.Error())})
				continue
			}
			results = append(results, c)
		}
	}
	searched := map[string]string{}
	adapted := map[string]string{}
	for _, a := range o.answers {
		seen := r.Shown && a.VisibleFor(sh.content)
		if seen {
			r.FromView++
			r.FromViewIDs = append(r.FromViewIDs, a.ID)
		} else {
			r.NotFromView = append(r.NotFromView, a.ID)
		}
		byQuery := false
		for _, c := range results {
			if a.VisibleFor(c) {
				byQuery = true
				break
			}
		}
		if !byQuery && handle != "" && len(a.Record) > 0 {
			text := a.Record[0]
			c, done := searched[text]
			if !done {
				c, _ = runModelQuery(ctx, h.Engine, ModelQuery{Op: "search", Ref: handle, Text: text}, b)
				searched[text] = c
			}
			byQuery = c != "" && a.VisibleFor(c)
		}
		// A suggested query that selects one value, adapted to the
		// record the question names (the model knows it from the
		// question).
		for _, q := range suggested {
			if byQuery || len(a.Record) == 0 {
				break
			}
			aq, ok := q.Adapt(a.Record[0])
			if !ok {
				continue
			}
			key := aq.String()
			c, done := adapted[key]
			if !done {
				c, _ = runModelQuery(ctx, h.Engine, aq, b)
				adapted[key] = c
			}
			byQuery = c != "" && a.VisibleFor(c)
		}
		if byQuery {
			r.ViewQuery++
		}
		if seen || byQuery {
			r.ViewAnswerable++
			r.ViewAnswerableIDs = append(r.ViewAnswerableIDs, a.ID)
		}
	}
}

// violations lists, per output and strategy, every question visible by
// the field-aware rule at a smaller budget and not at a larger one.
func violations(rep *Report) []Violation {
	type key struct {
		out string
		s   Strategy
	}
	seen := map[key][]Result{}
	var order []key
	for _, r := range rep.Results {
		k := key{r.Output, r.Strategy}
		if _, ok := seen[k]; !ok {
			order = append(order, k)
		}
		seen[k] = append(seen[k], r)
	}
	var out []Violation
	for _, k := range order {
		rs := seen[k]
		sort.SliceStable(rs, func(i, j int) bool { return rs[i].Budget < rs[j].Budget })
		for i := range rs {
			for _, id := range rs[i].FromViewIDs {
				for j := i + 1; j < len(rs); j++ {
					if !slices.Contains(rs[j].FromViewIDs, id) {
						out = append(out, Violation{Output: k.out, Strategy: k.s, Question: id, Smaller: rs[i].Budget, Larger: rs[j].Budget})
					}
				}
			}
		}
	}
	return out
}

// byCategory sums the field-aware measures per budget × strategy ×
// category.
func byCategory(rep *Report) []CategoryTotal {
	cats := map[string]map[string]Category{}
	for _, o := range rep.Outputs {
		cats[o.Name] = o.QuestionCategories
	}
	var out []CategoryTotal
	for _, b := range rep.Budgets {
		for _, s := range rep.Strategies {
			for _, c := range Categories {
				t := CategoryTotal{Budget: b, Strategy: s, Category: c}
				for _, r := range rep.Results {
					if r.Budget != b || r.Strategy != s {
						continue
					}
					for id, qc := range cats[r.Output] {
						if qc != c {
							continue
						}
						t.Questions++
						if slices.Contains(r.FromViewIDs, id) {
							t.FromView++
						}
						if slices.Contains(r.ViewAnswerableIDs, id) {
							t.ViewAnswerable++
						}
					}
				}
				if t.Questions > 0 {
					out = append(out, t)
				}
			}
		}
	}
	return out
}
