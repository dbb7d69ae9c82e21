package budget

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

func records(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"total_count":` + fmt.Sprint(n) + `,"items":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"number":%d,"title":"issue number %d","state":"open","user":{"login":"u%d","avatar_url":"https://avatars.example.com/u/%d"},"body":"%s"}`,
			i, i, i%7, i, strings.Repeat("words and more words ", 10))
	}
	b.WriteString("]}")
	return b.Bytes()
}

// funcCompactor adapts a function to Compactor (a test double for a plugin).
type funcCompactor func(ctx context.Context, req Request) (Output, error)

func (f funcCompactor) Compact(ctx context.Context, req Request) (Output, error) { return f(ctx, req) }

func TestRunLevels(t *testing.T) {
	c := counter(t)
	p := NewPipeline(c)
	ctx := context.Background()
	data := records(40)

	// Fits as it is.
	r, err := p.Run(ctx, Input{Tool: "t", Data: data, Budget: 100000})
	if err != nil {
		t.Fatal(err)
	}
	// The output as it is, after a notice of the facts counted over it.
	notice, payload := SplitNotice(r.Content)
	if r.Level != schemas.LevelNone || payload != string(data) || r.Tokens.After != c.Count(r.Content) || r.Tokens.Before != c.Count(payload) {
		t.Errorf("level none: level %s, tokens %+v", r.Level, r.Tokens)
	}
	if !strings.HasPrefix(notice, FactsHead+"; counted: .items 40 records") {
		t.Errorf("level none: notice %q", notice)
	}
	if len(r.Collections) != 1 || r.Collections[0].Path != ".items" || r.Collections[0].Count != 40 || r.Collections[0].Shown != 40 {
		t.Errorf("collections %+v", r.Collections)
	}

	// Level 1 makes it fit.
	rules := Rules{Keep: []string{"number", "title", "user.login"}, Defaults: true}
	r, err = p.Run(ctx, Input{Tool: "t", Data: data, Budget: 1000, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	if r.Level != schemas.LevelFields || r.Tokens.After != c.Count(r.Content) || r.Tokens.After > 1000 || r.Tokens.Before <= 1000 {
		t.Errorf("level fields: level %s, tokens %+v", r.Level, r.Tokens)
	}
	if strings.Count(r.Content, `"number"`) != 40 {
		t.Errorf("level fields lost records: %s", r.Content)
	}

	// Nothing fits and there is no store: a FitError with the numbers.
	_, err = p.Run(ctx, Input{Tool: "t", Data: data, Budget: 50, Rules: rules})
	var fe *FitError
	if !errors.As(err, &fe) || !errors.Is(err, ErrCannotFit) || fe.Budget != 50 || fe.Tokens <= 50 {
		t.Errorf("want a FitError, got %v", err)
	}

	// Too large.
	_, err = NewPipeline(c, WithMaxInput(100)).Run(ctx, Input{Data: data})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("want ErrTooLarge, got %v", err)
	}
}

func TestRunRejectsBadCompactors(t *testing.T) {
	p := NewPipeline(counter(t))
	data := records(30)
	cases := map[string]funcCompactor{
		"error": func(context.Context, Request) (Output, error) { return Output{}, errors.New("plugin crashed") },
		"lost record": func(_ context.Context, req Request) (Output, error) {
			return Output{Content: []byte(`{"items":[{"number":1}]}`), ContentType: TypeJSON}, nil
		},
		"invalid json": func(context.Context, Request) (Output, error) {
			return Output{Content: []byte(`{"items":[`), ContentType: TypeJSON}, nil
		},
		"declared wrong": func(_ context.Context, req Request) (Output, error) {
			return Output{Content: req.Input, ContentType: TypeJSON, Declared: []schemas.DeclaredCollection{{Path: ".items", Count: 29}}}, nil
		},
		"empty output": func(context.Context, Request) (Output, error) {
			return Output{Content: nil, ContentType: TypeJSON}, nil
		},
		"bad grouping": func(context.Context, Request) (Output, error) {
			return Output{Content: []byte(`{"items":[{"n":29}]}`), ContentType: TypeJSON,
				Declared: []schemas.DeclaredCollection{{Path: ".items", Count: 30, CountField: "n"}}}, nil
		},
	}
	for name, comp := range cases {
		t.Run(name, func(t *testing.T) {
			var rejected error
			r, err := p.Run(context.Background(), Input{Tool: "t", Data: data, Budget: 2000, Compactor: comp,
				Rules: Rules{Keep: []string{"number"}}, OnReject: func(err error) { rejected = err }})
			if err != nil {
				t.Fatal(err)
			}
			if rejected == nil || r.Actions[0].Kind != "plugin_failed" {
				t.Errorf("compactor not rejected: %v, actions %+v", rejected, r.Actions)
			}
			if strings.Count(r.Content, `"number"`) != 30 {
				t.Errorf("fallback lost records: %s", r.Content)
			}
		})
	}
	// A grouping compactor that accounts for every record is accepted.
	good := funcCompactor(func(context.Context, Request) (Output, error) {
		return Output{Content: []byte(`{"items":[{"state":"open","n":30}]}`), ContentType: TypeJSON,
			Declared: []schemas.DeclaredCollection{{Path: ".items", Count: 30, CountField: "n"}}}, nil
	})
	r, err := p.Run(context.Background(), Input{Tool: "t", Data: data, Budget: 2000, Compactor: good, OnReject: func(err error) { t.Errorf("rejected: %v", err) }})
	// Grouping is lossy: the notice says a compactor reshaped the output.
	notice, payload := SplitNotice(r.Content)
	if err != nil || payload != `{"items":[{"state":"open","n":30}]}` || !strings.Contains(notice, "30 of 30 records shown") ||
		!strings.Contains(notice, "reshaped by the tool's compactor") {
		t.Errorf("good grouping compactor: %v %q", err, r.Content)
	}
	// Text grouped with [×N] markers.
	lines := []byte("a\nb\nb\nb\nc\n")
	text := funcCompactor(func(context.Context, Request) (Output, error) {
		return Output{Content: []byte("a\n[×3] b\nc"), ContentType: TypeText}, nil
	})
	r, err = p.Run(context.Background(), Input{Data: lines, Budget: 1, Compactor: text, OnReject: func(err error) { t.Errorf("rejected: %v", err) }})
	if err == nil || !errors.Is(err, ErrCannotFit) {
		t.Errorf("text: want cannot fit in 1 token, got %v %q", err, r.Content)
	}
}

func TestRunBadInput(t *testing.T) {
	p := NewPipeline(counter(t))
	ctx := context.Background()
	cases := []struct {
		name  string
		data  []byte
		level schemas.Level
		kind  string
	}{
		{"empty", nil, schemas.LevelNone, ""},
		{"invalid json", []byte(`{"a": [1, 2`), schemas.LevelNone, "lines"},
		{"invalid utf8", []byte("caf\xe9 au lait\n"), schemas.LevelFields, "lines"},
		{"binary", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), schemas.LevelFields, ""},
		{"deep", []byte(strings.Repeat("[", 100000) + strings.Repeat("]", 100000)), "", "lines"},
		{"endoftext", []byte(`{"s":"<|endoftext|>"}`), schemas.LevelNone, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := p.Run(ctx, Input{Data: c.data, Budget: 1000})
			if c.level == "" {
				if !errors.Is(err, ErrCannotFit) {
					t.Fatalf("want ErrCannotFit, got %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Level != c.level {
				t.Errorf("level %s, want %s (%q)", r.Level, c.level, r.Content)
			}
			if c.kind != "" && (len(r.Collections) != 1 || r.Collections[0].Kind != c.kind) {
				t.Errorf("collections %+v", r.Collections)
			}
			if strings.ContainsRune(r.Content, 0) {
				t.Errorf("binary shown raw: %q", r.Content)
			}
		})
	}
}

func TestRunOptionsAndEstimates(t *testing.T) {
	c := counter(t)
	ctx := context.Background()
	// Over 1 MiB: tokens.before is the estimate, flagged; after is exact.
	big := records(5000)
	if len(big) <= 1<<20 {
		t.Fatalf("test input only %d bytes", len(big))
	}
	r, err := NewPipeline(c).Run(ctx, Input{Data: big, Budget: 60000, Rules: Rules{Keep: []string{"number"}}})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Tokens.BeforeEstimated || r.Tokens.Before != Estimate(big) || r.Tokens.After != c.Count(r.Content) {
		t.Errorf("tokens %+v", r.Tokens)
	}
	// The default budget applies when neither the input nor the rules set one.
	_, err = NewPipeline(c, WithDefaultBudget(10)).Run(ctx, Input{Data: records(5)})
	var fe *FitError
	if !errors.As(err, &fe) || fe.Budget != 10 {
		t.Errorf("default budget: %v", err)
	}
	r, err = NewPipeline(c, WithDefaultBudget(10)).Run(ctx, Input{Data: records(5), Rules: Rules{Budget: 5000}})
	if err != nil || r.Tokens.Budget != 5000 {
		t.Errorf("rules budget: %v %+v", err, r.Tokens)
	}
	// A records path that is not in this output: detected instead, and said.
	r, err = NewPipeline(c).Run(ctx, Input{Data: records(5), Budget: 5000, Rules: Rules{Records: []string{".rows"}}})
	if err != nil || r.Actions[0].Kind != ActRecordsMissing || r.Collections[0].Path != ".items" {
		t.Errorf("missing records path: %v %+v %+v", err, r.Actions, r.Collections)
	}
	// Named records paths are used.
	r, err = NewPipeline(c).Run(ctx, Input{Data: []byte(`{"m":{"a":1,"b":2}}`), Budget: 5000, Rules: Rules{Records: []string{".m"}}})
	if err != nil || len(r.Collections) != 1 || r.Collections[0].Kind != "map" || r.Collections[0].Count != 2 {
		t.Errorf("named records: %v %+v", err, r.Collections)
	}
}

// TestRunConcurrent runs one pipeline from several goroutines (go test
// -race checks the sharing).
func TestRunConcurrent(t *testing.T) {
	p := NewPipeline(counter(t))
	data := records(50)
	want, err := p.Run(context.Background(), Input{Data: data, Budget: 800, Rules: Rules{Keep: []string{"number", "title"}, Defaults: true, Format: "auto"}})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 5; i++ {
				r, err := p.Run(context.Background(), Input{Data: data, Budget: 800, Rules: Rules{Keep: []string{"number", "title"}, Defaults: true, Format: "auto"}})
				if err == nil && r.Content != want.Content {
					err = fmt.Errorf("content differs")
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for g := 0; g < 4; g++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
