package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium (installed by .ci/run). Without it the
// browser test skips, except under CI=1, where it fails.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (apt-get install -y chromium; .ci/run does it)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium)")
	return ""
}

// layoutReport is a report shaped like the bundled corpus at two
// budgets, with the corpus' longest names, so that every chart has the
// label lengths and counts real reports have.
func layoutReport() *Report {
	r := &Report{Encoding: "o200k_base", CharsPerToken: 4, PreviewChars: 2000, Budgets: []int{2000, 8000},
		Strategies: []Strategy{StrategyCompact, StrategyCharCut, StrategyTokenCut, StrategyFirstRows, StrategyPreview, StrategyRaw}}
	names := []string{"kubectl-pods-restarts.json", "github-search-repos.json", "find-usr-share-doc.txt", "apt-list-installed.txt",
		"go-doc-net-http.txt", "cloudwatch-alarms.json", "apt-cache-show-node.txt", "npm-view-react.json", "go-list-modules.json",
		"dpkg-status.txt", "go-build-failed.txt", "go-test-shop.jsonl", "app-log.jsonl", "fs-tree.json", "man-bash.txt", "tree-pip.json",
		"npm-ls-all.json", "npm-view-vite.json", "dpkg-log.txt", "apt-history.txt", "github-issues.json", "kubectl-pods.json",
		"go-list-std.json", "sqlite-orders.json", "a.txt"}
	for i, n := range names {
		tool := "tool." + strings.TrimSuffix(strings.TrimSuffix(n, ".json"), ".txt")
		r.Outputs = append(r.Outputs, OutputInfo{Name: n, Tool: tool, RawTokens: 10000 + 997*i})
		for _, b := range r.Budgets {
			for k, s := range r.Strategies {
				res := Result{Output: n, Tool: tool, Strategy: s, Budget: b, Shown: true, Valid: true, WithinBudget: true,
					Tokens: min(b, 10000+997*i) - 10*k, Questions: 10, Inline: (i + k) % 10, Answerable: min(10, (i+k)%10+5-k),
					Level: []string{"none", "fields", "artifact"}[(i+b)%3]}
				if s != StrategyCompact {
					res.Answerable = res.Inline
				}
				res.FromView, res.ViewAnswerable = res.Inline, res.Answerable
				r.Results = append(r.Results, res)
			}
		}
	}
	r.Totals = totals(r)
	return r
}

// layoutCheck runs in the page: for every chart, every <text> box must
// lie inside the chart's box and overlap no other text box of the chart.
const layoutCheck = `(() => {
  const problems = [];
  const charts = document.querySelectorAll('svg');
  charts.forEach((svg, ci) => {
    const sb = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].map(t => ({s: t.textContent, r: t.getBoundingClientRect()}));
    texts.forEach(t => {
      if (t.r.width === 0) problems.push('chart ' + ci + ': empty text box for ' + JSON.stringify(t.s));
      if (t.r.left < sb.left - 0.5 || t.r.right > sb.right + 0.5 || t.r.top < sb.top - 0.5 || t.r.bottom > sb.bottom + 0.5)
        problems.push('chart ' + ci + ': ' + JSON.stringify(t.s) + ' overflows the chart');
    });
    for (let i = 0; i < texts.length; i++) for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].r, b = texts[j].r;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) problems.push('chart ' + ci + ': ' + JSON.stringify(texts[i].s) + ' overlaps ' + JSON.stringify(texts[j].s));
    }
  });
  return {charts: charts.length, texts: document.querySelectorAll('svg text').length, problems};
})()`

// TestChartLayoutInBrowser renders the HTML report in headless Chromium
// and checks, with the fonts the browser really uses, that no label of a
// chart overlaps another or leaves the chart. On the old charts (gonum
// plot) the legend was cut off and category labels overlapped.
// COMPACT_SCREENSHOT=FILE.png also saves a screenshot of the first chart.
func TestChartLayoutInBrowser(t *testing.T) {
	bin := chromium(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	f, err := os.Create(page)
	if err != nil {
		t.Fatal(err)
	}
	if err := layoutReport().WriteHTML(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(bin),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(1280, 1000),
	}
	actx, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	ctx, cancel = context.WithTimeout(ctx, 90*time.Second)
	defer cancel()

	var got struct {
		Charts   int
		Texts    int
		Problems []string
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+page), chromedp.WaitVisible(`body svg`)); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[json.RawMessage](layoutCheck))
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("layout check answer %s: %v", raw, err)
	}
	if got.Charts < 3 || got.Texts < 50 {
		t.Fatalf("the page has %d charts and %d texts: the check saw nothing", got.Charts, got.Texts)
	}
	for _, p := range got.Problems {
		t.Error(p)
	}
	if out := os.Getenv("COMPACT_SCREENSHOT"); out != "" {
		png, err := chromedp.Run(ctx, chromedp.Screenshot(`body svg`))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Println("screenshot:", out)
	}
}
