package budget

import (
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
)

// countingTransport fails every request and counts them.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("network is unreachable in this test: " + r.URL.String())
}

// TestNoDownload loads both vocabularies in a fresh process (so that no
// cache hides a download) whose HTTP transport fails and counts every
// request, with the proxies pointed at a closed port as well.
func TestNoDownload(t *testing.T) {
	if os.Getenv("COMPACT_NO_DOWNLOAD_CHILD") == "1" {
		tr := &countingTransport{}
		http.DefaultTransport = tr
		http.DefaultClient = &http.Client{Transport: tr}
		for _, enc := range []string{EncodingO200k, EncodingCL100k} {
			c, err := NewCounter(enc)
			if err != nil {
				t.Fatalf("NewCounter(%s) without network: %v", enc, err)
			}
			if n := c.Count("offline <|endoftext|> counting"); n < 5 {
				t.Fatalf("%s: count %d", enc, n)
			}
		}
		if n := tr.n.Load(); n != 0 {
			t.Fatalf("%d HTTP requests were made", n)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoDownload$", "-test.v")
	cmd.Env = append(os.Environ(), "COMPACT_NO_DOWNLOAD_CHILD=1",
		"HTTP_PROXY=http://127.0.0.1:1", "HTTPS_PROXY=http://127.0.0.1:1", "NO_PROXY=", "TIKTOKEN_CACHE_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoDownload") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
