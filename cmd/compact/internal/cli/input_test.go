package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/schemas"
)

// TestRunInputPaths runs the same output through the three ways compact
// run reads its input (a mapped file, a pipe read into memory, a pipe
// spooled to a temporary file and mapped) and checks that the results are
// the same: same content, same exact counts, the same stored artifact,
// whose digest is the input's. The spool threshold is lowered so that a
// few hundred KB take the spooling path. An opt-in --max-input is
// enforced on the spooled path too.
func TestRunInputPaths(t *testing.T) {
	t.Setenv(envRegistry, "")
	var b strings.Builder
	b.WriteString(`{"items":[`)
	for i := range 3000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","state":%q,"body":"some text %d"}`, i, i, []string{"open", "closed"}[i%2], i*7)
	}
	b.WriteString("]}\n")
	input := b.String()
	sum := sha256.Sum256([]byte(input))
	file := writeFile(t, "in.json", input)
	store := filepath.Join(t.TempDir(), "store")

	run := func(stdin []byte, args ...string) schemas.Result {
		t.Helper()
		out, errs, code := execCLI(t, stdin, append([]string{"run", "--json", "--budget", "1500", "--store", store}, args...)...)
		if code != ExitOK {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var r schemas.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	mapped := run(nil, file)
	inMemory := run([]byte(input), "-")
	old, oldStore := spoolThreshold, storeSpoolThreshold
	spoolThreshold, storeSpoolThreshold = 4<<10, 4<<10
	t.Cleanup(func() { spoolThreshold, storeSpoolThreshold = old, oldStore })
	spooled := run([]byte(input), "-")

	if mapped.Level != schemas.LevelArtifact || mapped.Artifact == nil {
		t.Fatalf("level %s, artifact %v: want level 2 with an artifact", mapped.Level, mapped.Artifact)
	}
	if mapped.Artifact.SHA256 != hex.EncodeToString(sum[:]) || mapped.Artifact.Bytes != int64(len(input)) {
		t.Errorf("artifact %+v, want the input's digest and size %d", mapped.Artifact, len(input))
	}
	for name, r := range map[string]schemas.Result{"in memory": inMemory, "spooled": spooled} {
		if r.Content != mapped.Content || r.Tokens != mapped.Tokens || r.Artifact == nil || *r.Artifact != *mapped.Artifact {
			t.Errorf("%s: differs from the mapped file's result:\n%+v %+v\n%+v %+v", name, r.Tokens, r.Artifact, mapped.Tokens, mapped.Artifact)
		}
	}
	if got, _ := os.ReadFile(file); string(got) != input {
		t.Error("the mapped input file was changed")
	}
	// A limit above the old fixed ceiling of 256 MiB is accepted (it was
	// refused as "more than the pipeline's limit").
	if _, errs, code := execCLI(t, []byte(input), "run", "--store", "off", "--budget", "200000", "--max-input", "1GiB", "-"); code != ExitOK {
		t.Errorf("--max-input 1GiB: exit %d: %s", code, errs)
	}
	_, errs, code := execCLI(t, []byte(input), "run", "--store", "off", "--max-input", "64KiB", "-")
	if code != ExitInput || !strings.Contains(errs, "more than 64KiB, over the --max-input limit") {
		t.Errorf("spooled input over --max-input: exit %d: %s", code, errs)
	}
}

// TestRunPipeWrittenOnce: a pipe beyond the spool threshold, with a local
// store, is spooled into the store while it is hashed and committed as
// the artifact: it is written once, never to $TMPDIR (made unusable here:
// the old code spooled there first, then stored a second copy, and failed
// with "cannot spool standard input to a temporary file"). A spooled
// input that fits is not stored, and no spool file is left behind either
// way. --max-input still applies.
func TestRunPipeWrittenOnce(t *testing.T) {
	t.Setenv(envRegistry, "")
	old, oldStore := spoolThreshold, storeSpoolThreshold
	spoolThreshold, storeSpoolThreshold = 4<<10, 4<<10
	t.Cleanup(func() { spoolThreshold, storeSpoolThreshold = old, oldStore })
	t.Setenv("TMPDIR", filepath.Join(t.TempDir(), "missing"))
	var b strings.Builder
	b.WriteString(`[`)
	for i := range 2000 {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","state":%q}`, i, i, []string{"open", "closed"}[i%2])
	}
	b.WriteString("]\n")
	input := b.String()
	sum := sha256.Sum256([]byte(input))
	store := filepath.Join(t.TempDir(), "store")
	leftovers := func() []string {
		ents, _ := os.ReadDir(filepath.Join(store, "tmp"))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return names
	}
	out, errs, code := execCLI(t, []byte(input), "run", "--json", "--budget", "1500", "--store", store, "-")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r schemas.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Level != schemas.LevelArtifact || r.Artifact == nil || r.Artifact.SHA256 != hex.EncodeToString(sum[:]) || r.Artifact.Bytes != int64(len(input)) {
		t.Fatalf("level %s, artifact %+v: want level 2 storing the input", r.Level, r.Artifact)
	}
	got, errs, code := execCLI(t, nil, "artifact", "get", "--store", store, r.Artifact.Handle)
	if code != ExitOK || got != input {
		t.Fatalf("artifact get: exit %d, %d bytes (want %d): %s", code, len(got), len(input), errs)
	}
	if l := leftovers(); len(l) > 0 {
		t.Errorf("spool files left in the store: %v", l)
	}
	// Fits (level none): nothing stored, nothing left.
	objs := func() int {
		n := 0
		filepath.WalkDir(filepath.Join(store, "objects"), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Ext(p) == "" {
				n++
			}
			return nil
		})
		return n
	}
	before := objs()
	if _, errs, code := execCLI(t, []byte(input), "run", "--budget", "200000", "--store", store, "-"); code != ExitOK {
		t.Fatalf("fits: exit %d: %s", code, errs)
	}
	if objs() != before || len(leftovers()) > 0 {
		t.Errorf("a spooled input that fits: %d objects (was %d), leftovers %v", objs(), before, leftovers())
	}
	if _, errs, code := execCLI(t, []byte(input), "run", "--store", store, "--max-input", "8KiB", "-"); code != ExitInput || !strings.Contains(errs, "over the --max-input limit") {
		t.Errorf("spooled into the store over --max-input: exit %d: %s", code, errs)
	}
	if l := leftovers(); len(l) > 0 {
		t.Errorf("spool files left after --max-input: %v", l)
	}
}
