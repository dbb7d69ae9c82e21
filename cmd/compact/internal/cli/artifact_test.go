package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/artifact"
)

func TestArtifactCommands(t *testing.T) {
	t.Setenv(envRegistry, "")
	t.Setenv(envStore, "")
	dir := t.TempDir()
	st, err := artifact.NewDir(dir, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data := "{\"items\": [{\"id\": 1, \"msg\": \"disk full\"}, {\"id\": 2, \"msg\": \"ok\"}, {\"id\": 3, \"msg\": \"disk slow\"}]}\n"
	h, _, err := st.Put(context.Background(), strings.NewReader(data), budget.Meta{Tool: "t"})
	if err != nil {
		t.Fatal(err)
	}
	hs := string(h)

	out, errs, code := execCLI(t, nil, "artifact", "get", hs, "--store", dir)
	if code != ExitOK || out != data {
		t.Fatalf("get = %q, %q, %d", out, errs, code)
	}
	out, _, code = execCLI(t, nil, "artifact", "get", hs+".items[2]", "--store", dir)
	if code != ExitOK || out != `{"id": 3, "msg": "disk slow"}` {
		t.Fatalf("get path = %q, %d", out, code)
	}
	// A string-building jq bomb is refused at once with the reason
	// (issue 12); on the old code it ran for tens of seconds and GBs.
	bomb := `("x"*1e8) as $s | [$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s,$s] | add | length`
	start := time.Now()
	_, errs, code = execCLI(t, nil, "artifact", "query", hs, "--jq", bomb, "--store", dir)
	if code != ExitInput || !strings.Contains(errs, "would build a value") || time.Since(start) > 5*time.Second {
		t.Fatalf("jq bomb: exit %d after %v: %s", code, time.Since(start), errs)
	}
	out, _, code = execCLI(t, nil, "artifact", "query", hs, "--jq", "[.items[] | select(.msg | test(\"disk\")) | .id]", "--store", dir)
	if code != ExitOK || out != "[1,3]\n" {
		t.Fatalf("query = %q, %d", out, code)
	}
	// --timeout is the deadline of one jq run: a loop stops at the one
	// given, not at the 5 s default (the flag did not exist before), and a
	// slow machine can give a query more than the default.
	start = time.Now()
	_, errs, code = execCLI(t, nil, "artifact", "query", hs, "--jq", "last(range(1e15))", "--timeout", "300ms", "--store", dir)
	if code != ExitInput || !strings.Contains(errs, "ran past its deadline of 300ms") || time.Since(start) > 4*time.Second {
		t.Fatalf("--timeout 300ms: exit %d after %v: %s", code, time.Since(start), errs)
	}
	out, _, code = execCLI(t, nil, "artifact", "query", hs, "--jq", "[.items[].id] | add", "--timeout", "1m", "--store", dir)
	if code != ExitOK || out != "6\n" {
		t.Fatalf("query --timeout 1m = %q, %d", out, code)
	}
	out, _, code = execCLI(t, nil, "artifact", "slice", hs, "--offset", "1", "--limit", "1", "--store", dir)
	if code != ExitOK || !strings.Contains(out, "records 1-1 of 3 at .items") || !strings.Contains(out, "1\t{\"id\":2,\"msg\":\"ok\"}\n") {
		t.Fatalf("slice = %q, %d", out, code)
	}
	out, _, code = execCLI(t, nil, "artifact", "search", hs, "disk", "--limit", "5", "--store", dir, "--json")
	var a struct {
		Total     int   `json:"total"`
		Positions []int `json:"positions"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &a) != nil || a.Total != 2 || len(a.Positions) != 2 {
		t.Fatalf("search --json = %q, %d", out, code)
	}
	// A budgeted get of something larger than the budget is summarised.
	big := "[" + strings.Repeat(`{"id": 1, "msg": "a longer message that takes tokens"},`, 200) + "{}]"
	bh, _, err := st.Put(context.Background(), strings.NewReader(big), budget.Meta{})
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code = execCLI(t, nil, "artifact", "get", string(bh), "--budget", "150", "--store", dir)
	if code != ExitOK || !strings.Contains(out, "stored whole as artifact:"+string(bh)) || !strings.Contains(out, "collection . (array): 201 records") {
		t.Fatalf("budgeted get = %q, %q, %d", out, errs, code)
	}

	bad := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"artifact"}, ExitUsage, "usage: compact artifact get"},
		{[]string{"artifact", "frob", hs}, ExitUsage, `unknown operation "frob"`},
		{[]string{"artifact", "get", "../../etc/passwd", "--store", dir}, ExitUsage, "not a hex digit"},
		{[]string{"artifact", "get", "abc", "--store", dir}, ExitUsage, "has 3 characters"},
		{[]string{"artifact", "get", "0123456789ab", "--store", dir}, ExitInput, "artifact not found"},
		{[]string{"artifact", "get", hs + ".nope", "--store", dir}, ExitInput, `no key "nope"`},
		{[]string{"artifact", "query", hs, "--jq", ".items[", "--store", dir}, ExitUsage, "does not parse"},
		{[]string{"artifact", "query", hs, "--store", dir}, ExitUsage, "--jq FILTER is required"},
		{[]string{"artifact", "query", hs, "--jq", ".", "--timeout", "-1s", "--store", dir}, ExitUsage, "--timeout must be positive"},
		{[]string{"artifact", "slice", hs, "--offset", "-1", "--store", dir}, ExitUsage, "--offset must be 0 or more"},
		{[]string{"artifact", "slice", hs, "--path", ".x", "--store", dir}, ExitUsage, "no collection .x"},
		{[]string{"artifact", "search", hs, "--store", dir}, ExitUsage, "want 2 argument(s)"},
		{[]string{"artifact", "get", hs, "--store", "off"}, ExitUsage, "no store"},
		{[]string{"artifact", "query", hs, "--jq", ".", "--budget", "3", "--store", dir}, ExitCannotFit, "nothing was cut"},
	}
	for _, b := range bad {
		_, errs, code := execCLI(t, nil, b.args...)
		if code != b.code || !strings.Contains(errs, b.want) {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", b.args, code, errs, b.code, b.want)
		}
	}

	// gc: flags checked, then a quota enforced oldest first.
	if _, errs, code := execCLI(t, nil, "artifact", "gc", "--store", dir); code != ExitUsage || !strings.Contains(errs, "give --ttl") {
		t.Fatalf("gc without limits: %d %q", code, errs)
	}
	if _, errs, code := execCLI(t, nil, "artifact", "gc", "--max-size", "lots", "--store", dir); code != ExitUsage || !strings.Contains(errs, "--max-size") {
		t.Fatalf("gc bad size: %d %q", code, errs)
	}
	gdir := t.TempDir()
	gst, _ := artifact.NewDir(gdir, artifact.Options{})
	var gh []budget.Handle
	for i := range 3 {
		h, _, err := gst.Put(context.Background(), strings.NewReader(strings.Repeat(string(rune('a'+i)), 1000)), budget.Meta{})
		if err != nil {
			t.Fatal(err)
		}
		gh = append(gh, h)
		time.Sleep(10 * time.Millisecond) // distinct creation times
	}
	out, errs, code = execCLI(t, nil, "artifact", "gc", "--max-size", "2000", "--store", gdir)
	if code != ExitOK || !strings.Contains(out, "3 artifacts scanned: 0 expired and 1 evicted") {
		t.Fatalf("gc = %q %q %d", out, errs, code)
	}
	if _, errs, code := execCLI(t, nil, "artifact", "get", string(gh[0]), "--store", gdir); code != ExitInput || !strings.Contains(errs, "expired") {
		t.Fatalf("evicted artifact: %d %q", code, errs)
	}
	if _, _, code := execCLI(t, nil, "artifact", "get", string(gh[2]), "--store", gdir); code != ExitOK {
		t.Fatalf("newest artifact gone: %d", code)
	}

	// An artifact removed by retention: exit 3, and the message says so.
	now := time.Now()
	old, _ := artifact.NewDir(dir, artifact.Options{TTL: time.Minute, GCInterval: -1, Now: func() time.Time { return now }})
	eh, _, _ := old.Put(context.Background(), strings.NewReader("short-lived\n"), budget.Meta{})
	now = now.Add(time.Hour)
	if _, err := old.GC(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, errs, code = execCLI(t, nil, "artifact", "get", string(eh), "--store", dir)
	if code != ExitInput || !strings.Contains(errs, "artifact expired") || !strings.Contains(errs, "retention") {
		t.Fatalf("expired: exit %d, %q", code, errs)
	}
}

// TestParseQuota: a store quota may exceed the 4GiB cap of plugin memory
// sizes, and bad, zero or overflowing sizes are errors.
func TestParseQuota(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "500MiB": 500 << 20, "10GiB": 10 << 30, "2TB": 2e12, "3 TiB": 3 << 40} {
		if got, err := parseQuota(in); err != nil || got != want {
			t.Errorf("parseQuota(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "lots", "-1", "1PiB", "9223372036854775807KiB", "99999999999999999999"} {
		if got, err := parseQuota(in); err == nil {
			t.Errorf("parseQuota(%q) = %d, want an error", in, got)
		}
	}
}
