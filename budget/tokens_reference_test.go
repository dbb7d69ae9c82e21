package budget

// This is the one file that imports the reference tokenizer,
// github.com/pkoukk/tiktoken-go (and its offline vocabularies): the
// design's original choice, kept to check that the counter of
// budget/internal/bpe counts exactly what it counts.

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pkoukk/tiktoken-go"
	tiktoken_loader "github.com/pkoukk/tiktoken-go-loader"
	"github.com/toolcompact/compact/budget/internal/bpe"
)

var (
	refOnce sync.Once
	refEncs = map[string]*tiktoken.Tiktoken{}
	refErr  error
)

// refCount counts text with the reference tokenizer (ordinary encoding:
// special-token text as ordinary text).
func refCount(t testing.TB, encoding, text string) int {
	t.Helper()
	refOnce.Do(func() {
		tiktoken.SetBpeLoader(tiktoken_loader.NewOfflineLoader())
		for _, name := range []string{EncodingO200k, EncodingCL100k} {
			e, err := tiktoken.GetEncoding(name)
			if err != nil {
				refErr = err
				return
			}
			refEncs[name] = e
		}
	})
	if refErr != nil {
		t.Fatalf("reference tokenizer: %v", refErr)
	}
	return len(refEncs[encoding].EncodeOrdinary(text))
}

// TestVocabularyMatchesReference checks that the embedded vocabularies
// hold exactly the reference's ranks: the same tokens, in the same order.
func TestVocabularyMatchesReference(t *testing.T) {
	loader := tiktoken_loader.NewOfflineLoader()
	for _, name := range []string{EncodingO200k, EncodingCL100k} {
		ranks, err := loader.LoadTiktokenBpe("https://openaipublic.blob.core.windows.net/encodings/" + name + ".tiktoken")
		if err != nil {
			t.Fatal(err)
		}
		enc := bpe.Get(name)
		if enc.Len() != len(ranks) {
			t.Fatalf("%s: %d tokens embedded, the reference has %d", name, enc.Len(), len(ranks))
		}
		for tok, r := range ranks {
			if got := enc.Token(r); got != tok {
				t.Fatalf("%s: rank %d is %q, the reference has %q", name, r, got, tok)
			}
		}
	}
}

// TestCountMatchesReferenceCorpus counts every captured output, and level
// 1's output of the JSON ones, with both encodings, and compares each
// count with the reference's.
func TestCountMatchesReferenceCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the reference counts about 10 MB twice at ~2 MB/s")
	}
	files, err := filepath.Glob("../testdata/captured/*")
	if err != nil {
		t.Fatal(err)
	}
	var texts, names []string
	for _, f := range files {
		if strings.HasSuffix(f, ".yaml") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts, names = append(texts, string(data)), append(names, filepath.Base(f))
		if out, err := Declarative().Compact(t.Context(), Request{Input: data, Rules: Rules{Defaults: true}}); err == nil && len(out.Content) > 0 {
			texts, names = append(texts, string(out.Content)), append(names, filepath.Base(f)+" (level 1)")
		}
	}
	if len(texts) < 20 {
		t.Fatalf("only %d texts in the corpus", len(texts))
	}
	for _, enc := range []string{EncodingO200k, EncodingCL100k} {
		c, _ := NewCounter(enc)
		for i, text := range texts {
			if got, want := c.Count(text), refCount(t, enc, text); got != want {
				t.Errorf("%s %s: %d tokens, the reference counts %d", enc, names[i], got, want)
			}
		}
	}
}

// TestCountMatchesReferenceEdges compares counts with the reference on
// texts chosen for the corners of the pre-tokenizers' patterns: each
// Unicode category next to each other, contractions, white-space runs,
// invalid UTF-8, long runs of one class (long pieces go through the
// heap merge).
func TestCountMatchesReferenceEdges(t *testing.T) {
	texts := []string{
		"", "a", " ", "\n", "hello world", "Hello World HELLO worldWIDE camelCase XMLHttpRequest",
		"it's I'M we'RE you'Ve he'll she'D 'S 'tis 'l 'x ''s rock'n'roll", "don'T'S",
		"  leading\n\n\ttabs\t\t x  \r\n\r\n  \n ", "trailing   ", "a\u00a0b \u00a0c\u2003\u2003d\u3000e",
		"1 12 123 1234 12345 123456 ١٢٣٤ ½⅓ Ⅻ 3.14 -5e10 0x1F",
		"{\"id\":12,\"n\":\"x\"},{\"id\":345,\"path\":\"/usr/lib/x\"}\n/leading slash\n//\n", "!!! ... ?? \n\n/// \r\n",
		"日本語のテキストです。中文文本。한국어 텍스트", "Ǆemo ǅemo ǆemo ᾈ ᾀ", "e\u0301 cafe\u0301 \u0301\u0301x A\u0301B \u0301'S",
		"ʰʲ ʰA Aʰ aʰ ʰ's", "Привет, мир! Ελληνικά ΑΒΓ αβγ", "emoji 😀😃 👨‍👩‍👧 🇫🇷 x😀y",
		"\xff\xfe invalid \xc3 utf8 \xe2\x82 end\x80", "a\xffb c\xff's", "\u0085\u0085x \u2028y\u2029",
		"\v\f \v x\f", "<|endoftext|> <|fim_prefix|>", strings.Repeat("[", 3000), strings.Repeat(" ", 3000) + "x",
		strings.Repeat("a", 3000), strings.Repeat("ab", 1500), strings.Repeat("\n", 200) + "x", strings.Repeat("9", 100),
		strings.Repeat("é", 500), strings.Repeat("日本", 400), strings.Repeat("\xff", 100),
	}
	for _, enc := range []string{EncodingO200k, EncodingCL100k} {
		c, _ := NewCounter(enc)
		for _, text := range texts {
			if got, want := c.Count(text), refCount(t, enc, text); got != want {
				t.Errorf("%s %q: %d tokens, the reference counts %d", enc, clip(text), got, want)
			}
		}
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// FuzzCountMatchesReference checks, in both encodings, that Count equals
// the reference's count, that CountUpTo agrees with it, that LowerBound
// never exceeds it (and stops where it should), and that counts of a text cut where safeCut
// holds add up to the count of the whole.
func FuzzCountMatchesReference(f *testing.F) {
	for _, s := range []string{
		`{"id":12,"n":"x"},{"id":345,"n":"it's"}`, "a1b2 c3\n/x\n  y\n4", "it's 'tis ''s 12345678 ١٢٣ é1",
		"}\n]\n/a\n\n  12\t!\x01a\x7f1", "AbcDef123ghi'LL 'RE \r\n\r\n  \u00a0 1", "日本語1a;2:3/4",
		"e\u0301 A\u0301B \u0301'S ʰA", "\xff\xfe x\xc3", "  \n \t\n  x", "Ǆemo ǅ ᾈ",
	} {
		f.Add(s)
	}
	o, _ := NewCounter(EncodingO200k)
	c, _ := NewCounter(EncodingCL100k)
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2000 {
			return
		}
		for _, ctr := range []Counter{o, c} {
			whole := refCount(t, ctr.Encoding(), s)
			if got := ctr.Count(s); got != whole {
				t.Fatalf("%s: Count %d, the reference %d, for %q", ctr.Encoding(), got, whole, s)
			}
			if lb := LowerBound([]byte(s)); lb > whole {
				t.Fatalf("%s: LowerBound %d > exact %d for %q", ctr.Encoding(), lb, whole, s)
			}
			checkLowerBoundStops(t, []byte(s), LowerBound([]byte(s)))
			cuts := 0
			for i := 1; i < len(s) && cuts < 16; i++ {
				if !safeCut(s[i-1], s[i]) {
					continue
				}
				cuts++
				if n := ctr.Count(s[:i]) + ctr.Count(s[i:]); n != whole {
					t.Fatalf("%s: cut at %d of %q: %d, whole %d", ctr.Encoding(), i, s, n, whole)
				}
			}
			for _, limit := range []int{0, whole / 2, whole} {
				if n, over := CountUpTo(ctr, s, limit); over != (whole > limit) || !over && n != whole || over && n > whole {
					t.Fatalf("%s: CountUpTo(limit %d) = %d, %v; exact %d", ctr.Encoding(), limit, n, over, whole)
				}
			}
		}
	})
}
