package cli

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// FuzzRun feeds arbitrary bytes to "compact run --json --store off" and
// checks the promises end to end: it exits 0 or 4 (never a crash or an
// internal error); on 0 the envelope is valid, its content is valid UTF-8
// and counts exactly tokens.after within the budget, and every record is
// still shown (without a store nothing may be left out); on 4 the message
// gives the numbers.
func FuzzRun(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `[1,2,3]`, `[{"a":1,"b":null},{"a":2,"b":""}]`, `{"items":[{"id":"x","url":"https://e"}]}`,
		"{\"a\":1}\n{\"a\":2}\n", "line one\nline two\n", "not json {", "\x00\x01\x02", "bad \xff utf8",
		strings.Repeat("[", 300), `{"s":"` + strings.Repeat("long ", 400) + `"}`, "<|endoftext|>",
	} {
		f.Add([]byte(s), uint16(50))
	}
	counter, err := budget.NewCounter(budget.DefaultEncoding)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte, b uint16) {
		if len(in) > 4096 {
			return
		}
		bud := int(b%2000) + 1
		var out, errb bytes.Buffer
		code := Main([]string{"run", "--json", "--store", "off", "--registry", "", "--budget", strconv.Itoa(bud), "-"},
			bytes.NewReader(in), &out, &errb)
		switch code {
		case ExitCannotFit:
			if !strings.Contains(errb.String(), "cannot fit budget") || !strings.Contains(errb.String(), "budget "+strconv.Itoa(bud)) {
				t.Fatalf("exit 4 without the numbers: %s", errb.String())
			}
			return
		case ExitOK:
		default:
			t.Fatalf("exit %d on %q (budget %d): %s", code, in, bud, errb.String())
		}
		var r schemas.Result
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("envelope: %v", err)
		}
		if !utf8.ValidString(r.Content) {
			t.Fatalf("content is not valid UTF-8")
		}
		if n := counter.Count(r.Content); n != r.Tokens.After || n > bud {
			t.Fatalf("tokens.after %d, content counts %d, budget %d", r.Tokens.After, n, bud)
		}
		for _, c := range r.Collections {
			if c.Shown != c.Count {
				t.Fatalf("collection %s shows %d of %d with no store", c.Path, c.Shown, c.Count)
			}
		}
	})
}
