// Package bench measures what compaction strategies keep, for
// `compact bench`.
//
// Ground truth: a corpus directory holds outputs and, beside each,
// <name>.questions.yaml (schema: schemas/questions.schema.json).
// LoadCorpus loads them all, LoadQuestions one; QuestionFile.Answer
// computes each question's answer with jq (gojq) over the original output;
// Answer.VisibleIn applies the visibility rule.
//
// Measures: Harness.Run shows every output with every Strategy at each
// token budget (compact through host.Engine, and the baselines: a cut at
// budget×CharsPerToken characters, a cut at the budget in tokens with a
// note, the first records that fit, a preview plus a saved file, the raw
// output when it fits) and measures, per output, strategy and budget, the
// exact tokens shown, whether the shown text is well-formed (Format.Valid),
// whether every collection's true count is stated, the share of questions
// whose answer is visible, and, through the handle compact shows, the
// share answered exactly by one jq query run through the artifact query
// path. The Report renders as a terminal table, JSON, Markdown, or a
// self-contained HTML page with SVG charts; CheckTargets lists where
// compact misses its targets.
//
// Speed: RunSpeed runs SpeedBenches (level 1, a WASM plugin, the artifact
// store and jq queries, token counting) with testing.Benchmark in the
// running binary, each against the baseline it names.
package bench
