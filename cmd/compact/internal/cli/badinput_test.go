package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/schemas"
)

// runJSON runs "compact run --json" with args on stdin and decodes the
// envelope.
func runJSON(t *testing.T, stdin []byte, args ...string) (schemas.Result, string) {
	t.Helper()
	out, errs, code := execCLI(t, stdin, append([]string{"run", "--json"}, args...)...)
	if code != ExitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, errs)
	}
	var r schemas.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("envelope: %v\n%s", err, out)
	}
	return r, errs
}

func hasAction(r schemas.Result, kind string) bool {
	for _, a := range r.Actions {
		if a.Kind == kind {
			return true
		}
	}
	return false
}

// TestRunBadInput pins the documented treatment of each kind of bad
// input: never a crash or a hang, never bytes shown as if they were text,
// never records lost without saying so.
func TestRunBadInput(t *testing.T) {
	t.Setenv(envRegistry, "")
	store := t.TempDir()

	t.Run("empty", func(t *testing.T) {
		r, _ := runJSON(t, nil, "--store", "off", "-")
		if r.Content != "" || r.Level != schemas.LevelNone || len(r.Collections) != 0 || r.Tokens.After != 0 {
			t.Errorf("%+v", r)
		}
		out, _, code := execCLI(t, nil, "run", "--store", "off")
		if code != ExitOK || out != "" {
			t.Errorf("text mode: exit %d out %q", code, out)
		}
	})

	t.Run("invalid JSON is text", func(t *testing.T) {
		in := []byte("{\"a\": [1, 2,\n  \"b\": tru}\n")
		r, _ := runJSON(t, in, "--store", "off")
		if r.ContentType != "text/plain" || r.Content != string(in) || len(r.Collections) != 1 ||
			r.Collections[0].Kind != "lines" || r.Collections[0].Count != 2 || r.Collections[0].Shown != 2 {
			t.Errorf("%+v", r)
		}
	})

	t.Run("invalid UTF-8", func(t *testing.T) {
		in := []byte("line one\nbad \xff\xfe bytes\nline three\n")
		r, _ := runJSON(t, in, "--store", "off")
		if !utf8.ValidString(r.Content) || !hasAction(r, "replace_invalid_utf8") || r.Collections[0].Count != 3 {
			t.Errorf("%+v", r)
		}
		out, _, code := execCLI(t, in, "run", "--store", "off")
		if code != ExitOK || !utf8.ValidString(out) || out != r.Content {
			t.Errorf("text mode: exit %d, %q", code, out)
		}
	})

	t.Run("binary", func(t *testing.T) {
		in := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00")
		r, _ := runJSON(t, in, "--store", "off")
		if r.ContentType != "image/png" || !hasAction(r, "hexdump") || strings.ContainsRune(r.Content, 0) || !strings.Contains(r.Content, "89 50 4e 47") {
			t.Errorf("%+v", r)
		}
	})

	t.Run("100,000 deep", func(t *testing.T) {
		for _, in := range [][]byte{
			[]byte(strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000)),
			[]byte(strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000)),
		} {
			r, _ := runJSON(t, in, "--store", store, "--budget", "300")
			if r.Level != schemas.LevelArtifact || r.Artifact == nil || r.Artifact.Bytes != int64(len(in)) || r.Tokens.After > 300 {
				t.Errorf("%+v", r)
			}
			_, errs, code := execCLI(t, in, "run", "--store", "off", "--budget", "300")
			if code != ExitCannotFit || !strings.Contains(errs, "budget 300") {
				t.Errorf("without a store: exit %d\n%s", code, errs)
			}
		}
	})

	t.Run("unknown tool falls to default", func(t *testing.T) {
		reg := writeFile(t, "r.yaml", "version: 1\ntools:\n  - {name: default, drop: [secret], defaults: false, format: json}\n  - {name: known, drop: [id], defaults: false}\n")
		var in bytes.Buffer
		in.WriteString("[")
		for i := 0; i < 20; i++ {
			if i > 0 {
				in.WriteString(",")
			}
			fmt.Fprintf(&in, `{"id":%d,"secret":"s%d","name":"n%d"}`, i, i, i)
		}
		in.WriteString("]")
		r, _ := runJSON(t, in.Bytes(), "--store", "off", "--registry", reg, "--tool", "no.such.tool", "--budget", "250")
		notice, payload := budget.SplitNotice(r.Content)
		if r.Tool != "no.such.tool" || r.Level != schemas.LevelFields || strings.Contains(payload, "secret") || !strings.Contains(payload, `"id"`) ||
			!strings.Contains(notice, "secret ×20") {
			t.Errorf("%+v", r)
		}
		if r.Collections[0].Count != 20 || r.Collections[0].Shown != 20 {
			t.Errorf("records: %+v", r.Collections)
		}
		found := false
		for _, a := range r.Actions {
			found = found || (a.Kind == "drop_field" && strings.Contains(a.Target, "secret") && a.Count == 20)
		}
		if !found {
			t.Errorf("the drop is not listed: %+v", r.Actions)
		}
	})

	t.Run("cannot fit exits 4 with the numbers", func(t *testing.T) {
		in := []byte(`[` + strings.Repeat(`{"k":"a long value that cannot be dropped"},`, 200) + `{"k":"x"}]`)
		out, errs, code := execCLI(t, in, "run", "--store", "off", "--budget", "50")
		if code != ExitCannotFit || out != "" {
			t.Fatalf("exit %d, stdout %q", code, out)
		}
		for _, w := range []string{"cannot fit budget", "budget 50", "best was ", "nothing was cut; raise --budget, or drop --store off"} {
			if !strings.Contains(errs, w) {
				t.Errorf("stderr lacks %q:\n%s", w, errs)
			}
		}
	})
}
