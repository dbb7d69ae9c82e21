package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
	"github.com/toolcompact/compact/schemas"
)

const agentPrompt = "../../../../budget/prompt/testdata/agent.json"

func TestContextBadInvocations(t *testing.T) {
	t.Setenv(envRegistry, "")
	store := t.TempDir()
	cases := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"no budget", "[]", []string{"context", "--store", store}, ExitUsage, "--budget must be a positive number of tokens, got 0"},
		{"two files", "", []string{"context", "--budget", "10", "a", "b"}, ExitUsage, "one input file at most"},
		{"missing file", "", []string{"context", "--budget", "10", filepath.Join(store, "nope.json")}, ExitInput, "no such file"},
		{"not json", "hello", []string{"context", "--budget", "10", "--store", store}, ExitInput, `standard input: invalid prompt: input starts with 'h'`},
		{"unknown kind", `[{"kind":"tool","content":"x"}]`, []string{"context", "--budget", "10", "--store", store}, ExitInput, `blocks[0].kind: unknown kind "tool"`},
		{"fixed blocks exceed", `[{"kind":"system","content":"` + strings.Repeat("rule number one. ", 40) + `"},{"kind":"user","content":"hi"}]`,
			[]string{"context", "--budget", "30", "--store", store}, ExitCannotFit, "budget 30"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := execCLI(t, []byte(tc.stdin), tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want exit %d containing %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}

func TestContextDropsHintsAndStoresThem(t *testing.T) {
	t.Setenv(envRegistry, "")
	store := t.TempDir()
	in := `{"blocks":[
 {"id":"sys","kind":"system","content":"Be brief."},
 {"id":"h1","kind":"hint","priority":1,"content":"` + strings.Repeat("background fact. ", 30) + `"},
 {"id":"h2","kind":"hint","priority":3,"content":"the user likes tables"},
 {"id":"q","kind":"user","content":"What changed?"}]}`
	stdout, stderr, code := execCLI(t, []byte(in), "context", "--budget", "40", "--store", store, "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := validateContextResult([]byte(stdout)); err != nil {
		t.Fatalf("result does not validate against context.schema.json: %v", err)
	}
	var res schemas.ContextResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelHints || len(res.Actions) != 1 || res.Actions[0].Block != "h1" || res.Actions[0].Handle == "" {
		t.Fatalf("result %+v", res)
	}
	if res.Tokens.After > 40 || len(res.Blocks) != 3 {
		t.Fatalf("tokens %+v, %d blocks", res.Tokens, len(res.Blocks))
	}
	// The dropped hint is in the store, byte for byte.
	st, err := artifact.NewDir(store, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := st.Open(context.Background(), budget.Handle(res.Actions[0].Handle))
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || string(got) != strings.Repeat("background fact. ", 30) {
		t.Errorf("artifact %s holds %q, %v", res.Actions[0].Handle, got, err)
	}
	// Text mode: blocks with headers on stdout, the manifest on stderr.
	stdout, stderr, code = execCLI(t, []byte(in), "context", "--budget", "40", "--store", store)
	if code != ExitOK || !strings.Contains(stdout, "=== q: user ===\nWhat changed?\n") || !strings.Contains(stderr, "hints drop_hint h1") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout, stderr)
	}
}

func TestContextExampleFile(t *testing.T) {
	if _, err := os.Stat(agentPrompt); err != nil {
		t.Fatal(err)
	}
	t.Setenv(envRegistry, "")
	stdout, stderr, code := execCLI(t, nil, "context", "--budget", "1000", "--store", t.TempDir(), agentPrompt)
	if code != ExitOK || !strings.Contains(stdout, "=== alarms: tool_result (cloudwatch.alarms) ===") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// TestContextCompactsToolResult fits a prompt whose tool result is a real
// captured output (CloudWatch alarms) through the engine and its built-in
// registry entry (pin: ALARM rows), and validates the JSON result against
// context.schema.json.
func TestContextCompactsToolResult(t *testing.T) {
	t.Setenv(envRegistry, "")
	store := t.TempDir()
	alarms, err := os.ReadFile("../../../../testdata/captured/cloudwatch-alarms.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := json.Marshal(schemas.ContextInput{Blocks: []schemas.Block{
		{ID: "sys", Kind: schemas.BlockSystem, Content: "You are an on-call assistant."},
		{ID: "q", Kind: schemas.BlockUser, Content: "Which alarms are firing?"},
		{ID: "alarms", Kind: schemas.BlockToolResult, Tool: "cloudwatch.alarms", Content: string(alarms)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := execCLI(t, doc, "context", "--budget", "6000", "--store", store, "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if err := validateContextResult([]byte(stdout)); err != nil {
		t.Fatalf("result does not validate against context.schema.json: %v", err)
	}
	var res schemas.ContextResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatal(err)
	}
	if res.Level != schemas.LevelArtifact || res.Tokens.After > 6000 || len(res.Results) != 1 {
		t.Fatalf("level %s tokens %+v results %d", res.Level, res.Tokens, len(res.Results))
	}
	r := res.Results[0]
	if r.Artifact == nil || r.Collections[0].Path != ".MetricAlarms" || r.Collections[0].Count != 360 {
		t.Fatalf("result %+v", r)
	}
	content := res.Blocks[2].Content
	if !strings.Contains(content, "\tpinned") || !strings.Contains(content, "pinned: ") || !strings.Contains(content, r.Artifact.Handle) {
		t.Errorf("summary lacks pinned rows or the handle:\n%.1500s", content)
	}
	// The manifest names the handle, and the store holds the original.
	if res.Actions[0].Handle != r.Artifact.Handle {
		t.Errorf("manifest handle %q, artifact %q", res.Actions[0].Handle, r.Artifact.Handle)
	}
	st, err := artifact.NewDir(store, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc, _, err := st.Open(context.Background(), budget.Handle(r.Artifact.Handle))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(rc)
	rc.Close()
	if !bytes.Equal(got, alarms) {
		t.Error("the stored artifact is not the original tool result")
	}
}

func validateContextResult(doc []byte) error {
	b, err := schemas.File(schemas.ContextSchemaFile)
	if err != nil {
		return err
	}
	sdoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.ContextSchemaID, sdoc); err != nil {
		return err
	}
	sch, err := c.Compile(schemas.ContextSchemaID + "#/$defs/result")
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return err
	}
	return sch.Validate(v)
}
