package plugintest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/plugins/pdk"
)

func capturedFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captured", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// syntheticLog is a log with known counts: 2,000 health checks, 20
// errors each followed by a two-frame stack trace, and 40 warnings.
func syntheticLog() []byte {
	var b bytes.Buffer
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, "2026-11-20T03:%02d:%02d.%03dZ INFO GET /healthz 200 %dms from 10.0.%d.%d\n", i/60%60, i%60, i%1000, i%50, i%7, i%250)
		if i%100 == 7 {
			fmt.Fprintf(&b, "2026-11-20T03:%02d:%02d.000Z ERROR db: connection refused (attempt %d)\n\tat db.Dial(db.go:%d)\n\tat main.run(main.go:12)\n", i/60%60, i%60, i, i)
		}
		if i%50 == 3 {
			fmt.Fprintf(&b, "2026-11-20T03:%02d:%02d.000Z WARN retry budget low: %d left\n", i/60%60, i%60, 2000-i)
		}
	}
	return b.Bytes()
}

// TestLogsWasm runs the logs plugin, built from source, through Extism and
// checks the framing, the declared count against the input's lines, the
// [×N] sum, and that every error and warning line is in the output
// verbatim.
func TestLogsWasm(t *testing.T) {
	in := newInstance(t, Build(t, Logs))
	if v := in.abiVersion(); v != 1 {
		t.Fatalf("abi version %d", v)
	}
	inputs := map[string][]byte{"synthetic": syntheticLog()}
	for _, f := range []string{"dpkg-log.txt", "apt-history.txt", "app-log.jsonl"} {
		if b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "captured", f)); err == nil {
			inputs[f] = b
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", "logs", "testdata", "apt-term.log")); err == nil {
		inputs["apt-term.log"] = b
	}
	for name, payload := range inputs {
		h, body := in.mustCall("text/plain", nil, payload)
		lines := strings.Split(strings.TrimSuffix(string(payload), "\n"), "\n")
		if len(h.Collections) != 1 || h.Collections[0].Path != "." || h.Collections[0].Count != len(lines) {
			t.Errorf("%s: header %+v, input has %d lines", name, h, len(lines))
		}
		sum := 0
		outSet := map[string]bool{}
		for _, l := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
			n, rest := pdk.ParseGroupMarker([]byte(l))
			sum += n
			if n == 1 {
				outSet[string(rest)] = true
			}
		}
		if sum != len(lines) {
			t.Errorf("%s: output lines stand for %d lines, input has %d", name, sum, len(lines))
		}
		kept := 0
		for _, l := range lines {
			low := strings.ToLower(l)
			if strings.Contains(low, "error") || strings.Contains(low, "warn") {
				if !outSet[l] {
					t.Errorf("%s: error/warning line not kept verbatim: %q", name, l)
				}
				kept++
			}
		}
		t.Logf("%s: %d lines, %d bytes -> %d bytes, %d error/warning lines verbatim", name, len(lines), len(payload), len(body), kept)
	}
	// The synthetic log: the 2,000 health checks are one group.
	_, body := in.mustCall("text/plain", nil, inputs["synthetic"])
	if !bytes.Contains(body, []byte("[×2000] <ts> INFO GET /healthz <n> <n>ms from <ip>  (2026-11-20T03:00:00.000Z … 2026-11-20T03:33:19.999Z)\n")) {
		t.Errorf("health checks not grouped:\n%s", firstBytes(body, 600))
	}
}

// TestRestListWasm runs the restlist plugin through Extism on the
// captured GitHub issues page.
func TestRestListWasm(t *testing.T) {
	payload := capturedFile(t, "github-issues.json")
	in := newInstance(t, Build(t, RestList))
	h, body := in.mustCall("application/json", nil, payload)
	if h.ContentType != "text/x-compact-table" || len(h.Collections) != 1 || h.Collections[0].Count != 100 {
		t.Fatalf("header %+v", h)
	}
	// compact's own reader of the level-1 table format reads it back.
	rows, err := budget.TableToJSON(body)
	if err != nil {
		t.Fatalf("budget.TableToJSON: %v\n%s", err, firstBytes(body, 800))
	}
	var objs []map[string]any
	if err := json.Unmarshal(rows, &objs); err != nil || len(objs) != 100 || objs[0]["number"] == nil || objs[0]["title"] == nil {
		t.Errorf("table read back: %d rows, %v\n%s", len(objs), err, firstBytes(body, 800))
	}
	h, body = in.mustCall("application/json", map[string]string{"format": "json", "keep": "number,title"}, payload)
	if h.ContentType != "application/json" || !bytes.HasPrefix(body, []byte(`[{"number":`)) {
		t.Errorf("json: %+v %s", h, firstBytes(body, 200))
	}
	// A bad config is a clear failure, not a crash.
	exit, _, err := in.call(callTimeout, "application/json", map[string]string{"format": "xml"}, payload)
	if exit == 0 || err == nil || !strings.Contains(err.Error(), `format="xml"`) {
		t.Errorf("bad config: exit %d err %v", exit, err)
	}
}

// benchRaw measures warm calls of a plugin through Extism alone (copy in,
// the plugin's work, copy out), without the host's verification.
func benchRaw(b *testing.B, pkg, file, contentType string, config map[string]string) {
	payload := capturedFile(b, file)
	in := newInstance(b, Build(b, pkg))
	in.mustCall(contentType, config, payload)
	b.SetBytes(int64(len(payload)))
	b.ResetTimer()
	for b.Loop() {
		in.mustCall(contentType, config, payload)
	}
}

func BenchmarkRawRestListGitHubIssues(b *testing.B) {
	benchRaw(b, RestList, "github-issues.json", "application/json", nil)
}

func BenchmarkRawLogsAppLog(b *testing.B) {
	benchRaw(b, Logs, "app-log.jsonl", "text/plain", nil)
}

// BenchmarkRawEchoGitHubIssues is the floor: the faults fixture in echo
// mode copies the input in and the same bytes out.
func BenchmarkRawEchoGitHubIssues(b *testing.B) {
	benchRaw(b, Faults, "github-issues.json", "application/json", map[string]string{"fault": "echo"})
}
