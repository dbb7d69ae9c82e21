// Package bench measures what compaction strategies keep: it loads the
// questions files of a corpus of captured tool outputs, computes each
// question's ground truth with jq (gojq) over the original output, and
// tells whether an answer is visible in what a strategy shows.
//
// A corpus directory holds outputs and, beside each, <name>.questions.yaml
// (schema: schemas/questions.schema.json). LoadCorpus loads them all,
// LoadQuestions one; QuestionFile.Answer computes the ground truth;
// Answer.VisibleIn applies the visibility rule.
package bench
