package budget

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

// hashStore is a Store that keeps only the digest of what it is given:
// a level-2 run through it allocates what the pipeline allocates, not a
// copy of the input.
type hashStore struct{}

func (hashStore) Put(ctx context.Context, r io.Reader, m Meta) (Handle, Meta, error) {
	h := sha256.New()
	n, err := io.Copy(h, r)
	if err != nil {
		return "", m, err
	}
	m.SHA256, m.Bytes = hex.EncodeToString(h.Sum(nil)), n
	return Handle(m.SHA256[:12]), m, nil
}

func (hashStore) Open(ctx context.Context, h Handle) (io.ReadCloser, Meta, error) {
	return nil, Meta{}, ErrNotFound
}

// TestLevel1StopsOverBudget: with a level 2 after it, the declarative
// rules stop as soon as their output is proved over the budget, instead
// of writing (and holding) an output as large as the input; the same
// rules without a stop, or with a stop their output stays under, give
// exactly Compact's output.
func TestLevel1StopsOverBudget(t *testing.T) {
	ctx := context.Background()
	data := benchRecords(4 << 20)
	req := Request{Input: data, Rules: Rules{Defaults: true, Drop: []string{"note"}}}
	if _, err := declarativeUpTo(ctx, req, 8000); !errors.Is(err, errLevel1Over) {
		t.Fatalf("declarativeUpTo(8000) on 4 MB: err = %v, want errLevel1Over", err)
	}
	full, err := Declarative().Compact(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	under, err := declarativeUpTo(ctx, req, len(full.Content)) // no token is shorter than a byte
	if err != nil {
		t.Fatalf("declarativeUpTo(len) = %v, want the whole output", err)
	}
	if !bytes.Equal(under.Content, full.Content) || len(under.Actions) != len(full.Actions) {
		t.Fatalf("declarativeUpTo with a stop it never reaches differs from Compact")
	}
	// An output that may become a table stops only when the table of
	// the records so far is over too: with long names and short values
	// the table fits where the JSON never would, and is not stopped.
	var b strings.Builder
	b.WriteByte('[')
	for i := range 5000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"a_rather_long_member_name_for_the_first_field":%d,"another_long_member_name_for_the_second":%d}`, i%10, i%7)
	}
	b.WriteByte(']')
	tbl := Request{Input: []byte(b.String()), Rules: Rules{Format: "auto"}}
	want, err := Declarative().Compact(ctx, tbl)
	if err != nil || !strings.HasPrefix(string(want.Content), "a_rather_long") {
		t.Fatalf("no table: %v %.80q", err, want.Content)
	}
	tableTokens := counter(t).Count(string(want.Content))
	if lb := LowerBound(tbl.Input); lb < 2*tableTokens {
		t.Fatalf("the JSON's bound %d is not far over the table's %d tokens", lb, tableTokens)
	}
	got, err := declarativeUpTo(ctx, tbl, tableTokens+100)
	if err != nil || !bytes.Equal(got.Content, want.Content) {
		t.Fatalf("a table under the stop was stopped or changed: %v", err)
	}
	// A table over the stop is stopped.
	if _, err := declarativeUpTo(ctx, Request{Input: data, Rules: Rules{Format: "auto"}}, 8000); !errors.Is(err, errLevel1Over) {
		t.Fatalf("a 4 MB table over 8000 tokens: err = %v, want errLevel1Over", err)
	}
	// Text stops the same way.
	var tx strings.Builder
	for i := 0; tx.Len() < 2<<20; i++ {
		fmt.Fprintf(&tx, "2024-01-02T03:04:05Z INFO request %d served in %d ms\n", i, i%97)
	}
	text := Request{Input: []byte(tx.String())}
	if _, err := declarativeUpTo(ctx, text, 8000); !errors.Is(err, errLevel1Over) {
		t.Fatalf("2 MB of text over 8000 tokens: err = %v, want errLevel1Over", err)
	}
	fullText, err := Declarative().Compact(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := declarativeUpTo(ctx, text, len(text.Input)); err != nil || !bytes.Equal(got.Content, fullText.Content) {
		t.Fatalf("text under the stop: %v", err)
	}
}

// TestLevel1StopAllocatesLittle: stopped early, level 1 allocates a
// fraction of the input. It used to reserve an output buffer of the
// input's size at once, and write all of it.
func TestLevel1StopAllocatesLittle(t *testing.T) {
	data := benchRecords(8 << 20)
	req := Request{Input: data, Rules: Rules{Defaults: true}}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_, err := declarativeUpTo(context.Background(), req, 8000)
	runtime.ReadMemStats(&m1)
	if !errors.Is(err, errLevel1Over) {
		t.Fatalf("err = %v, want errLevel1Over", err)
	}
	alloc := m1.TotalAlloc - m0.TotalAlloc
	if alloc > uint64(len(data))/4 {
		t.Errorf("level 1 stopped over the budget allocated %d bytes for an input of %d", alloc, len(data))
	}
}

// TestLevel2SkipsLevel1Actions: a level-2 result whose level 1 was
// stopped early (an input of level1StopMin or more) lists no level-1
// actions (they would count a part of an output nobody sees) but one
// level1_stopped action, and its counts are still exact.
func TestLevel2SkipsLevel1Actions(t *testing.T) {
	data := benchRecords(level1StopMin)
	p := NewPipeline(counter(t), WithStore(hashStore{}))
	res, err := p.Run(context.Background(), Input{Tool: "t", Data: data, Budget: 4000, Rules: Rules{Defaults: true, Drop: []string{"note"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelArtifact {
		t.Fatalf("level %s, want artifact", res.Level)
	}
	sh, err := DetectShape(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Collections[0].Count != sh.Collections[0].Count {
		t.Errorf("count %d, want %d", res.Collections[0].Count, sh.Collections[0].Count)
	}
	stopped := 0
	for _, a := range res.Actions {
		switch {
		case a.Kind == ActLevel1Stopped:
			stopped++
		case a.Level == schemas.LevelFields:
			t.Errorf("level-1 action in a level-2 result: %+v", a)
		}
	}
	if stopped != 1 {
		t.Errorf("%d level1_stopped actions, want 1: %+v", stopped, res.Actions)
	}
}
