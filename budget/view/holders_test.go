package view_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// requestLog is a load test's results as JSON lines (vegeta's shape):
// n requests numbered by seq (written out of order near the end, as
// vegeta does), each with a time, a code, a url and a latency; the
// requests to the paths of missing get 404, those of posts 501.
func requestLog(n int, missing, posts []string) []byte {
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		seq := i
		if i == n-3 {
			seq = n - 2
		} else if i == n-2 {
			seq = n - 3
		}
		code, url := 200, fmt.Sprintf("http://127.0.0.1:8080/doc/pkg%03d/changelog.gz", i%97)
		if j := i - n/2; j >= 0 && j < len(missing) {
			code, url = 404, "http://127.0.0.1:8080"+missing[j]
		}
		if j := i - n/3; j >= 0 && j < len(posts) {
			code, url = 501, "http://127.0.0.1:8080"+posts[j]
		}
		fmt.Fprintf(&b, `{"seq":%d,"code":%d,"timestamp":"2026-11-27T16:56:%02d.%09dZ","latency":%d,"url":%q}`+"\n",
			seq, code, 7+i/60, (i%60)*1000000+i, 300000+(i*7919)%900000, url)
	}
	return b.Bytes()
}

// TestRareValuesNameTheirHolders: the 5 requests of 540 that got a 404
// are asked by their URLs ("which URLs returned 404?"); the profile's
// line counts them ("404 5"), a row shows one. A line after the code's
// names all five by url, the records' most name-like field, in record
// order (jq's own list); the 12 of 501 (more than maxHolders) are only
// counted. The records are named by their seq (0..539, each once), not
// by their time: "identity: seq", and the slowest request is named by
// it. Before, no line named the holders and the identity was the time.
func TestRareValuesNameTheirHolders(t *testing.T) {
	missing := []string{"/wp-login.php", "/bash/missing.txt", "/perl/README.old", "/.env", "/admin/"}
	posts := []string{"/a/upload", "/b/upload", "/c/upload", "/d/upload", "/e/upload", "/f/upload", "/g/upload", "/h/upload", "/i/upload", "/j/upload", "/k/upload", "/l/upload"}
	data := requestLog(540, missing, posts)
	v := buildView(t, inputOf(t, data, 4000))
	fl := fillAt(t, v, 4000)
	arr := []byte("[" + strings.Join(strings.Split(strings.TrimSpace(string(data)), "\n"), ",") + "]")
	var urls []string
	for _, u := range jq(t, arr, `[.[] | select(.code == 404) | .url]`)[0].([]any) {
		urls = append(urls, u.(string))
	}
	want := "\n  the 5 records with code=404, their url in order: " + strings.Join(urls, ", ") + "\n"
	if !strings.Contains(fl.Text, want) {
		t.Errorf("no line %q:\n%s", want, fl.Text)
	}
	if strings.Contains(fl.Text, "with code=501,") {
		t.Errorf("the 12 records of code=501 are named (more than 8):\n%s", fl.Text)
	}
	if !strings.Contains(fl.Text, "; identity: seq\n") {
		t.Errorf("the identity is not seq:\n%s", fl.Text)
	}
	slowest := jq(t, arr, `max_by(.latency) | [.latency, .seq]`)[0].([]any)
	if w := fmt.Sprintf("max %.0f (seq %v)", slowest[0], slowest[1]); !strings.Contains(fl.Text, w) {
		t.Errorf("no %q:\n%s", w, fl.Text)
	}
}

// TestSeqWithGapsIsNoIdentity: a number unique by chance (a position,
// an offset with gaps) still names no record; only one numbering the
// records 0..n-1 or 1..n does (numbersRecords).
func TestSeqWithGapsIsNoIdentity(t *testing.T) {
	var b bytes.Buffer
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, `{"offset":%d,"timestamp":"2026-11-27T16:56:%02d.%03dZ","code":200}`+"\n", i*3, i%60, i)
	}
	fl := fillAt(t, buildView(t, inputOf(t, b.Bytes(), 4000)), 4000)
	if strings.Contains(fl.Text, "identity: offset") {
		t.Errorf("an offset with gaps is the identity:\n%s", fl.Text)
	}
}
