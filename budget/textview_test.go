package budget_test

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolcompact/compact/budget"
	"github.com/toolcompact/compact/budget/query"
	"github.com/toolcompact/compact/schemas"
)

// textViewFiles are the captured text outputs (and the go test -json
// stream) whose level-2 view the tests below check.
var textViewFiles = []string{
	"dpkg-log.txt", "dpkg-status.txt", "apt-history.txt", "apt-cache-show.txt", "apt-list-installed.txt",
	"find-usr-share-doc.txt", "go-build-fail.txt", "npm-install-fail.txt", "man-bash.txt", "go-doc-net-http.txt",
	"go-test-json.jsonl",
}

func runView(t *testing.T, p *budget.Pipeline, name string, data []byte, b int) schemas.Result {
	t.Helper()
	res, err := p.Run(context.Background(), budget.Input{Tool: name, Data: data, Budget: b, Rules: budget.Rules{Tool: name, Defaults: true}})
	if err != nil {
		t.Fatalf("%s at %d: %v", name, b, err)
	}
	return res
}

// TestTextViewMonotone runs level 2 on every captured text at growing
// budgets: each view is within its budget (counted exactly), and shows
// every line the view at a smaller budget shows.
func TestTextViewMonotone(t *testing.T) {
	p, _, _ := storePipeline(t)
	budgets := []int{800, 2000, 4000, 8000}
	for _, name := range textViewFiles {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile("../testdata/captured/" + name)
			if err != nil {
				t.Fatal(err)
			}
			var prev map[string]bool
			prevBudget := 0
			for _, b := range budgets {
				res := runView(t, p, name, data, b)
				if res.Level != schemas.LevelArtifact {
					t.Fatalf("budget %d: level %s, want artifact", b, res.Level)
				}
				if res.Tokens.After > b {
					t.Fatalf("budget %d: %d tokens", b, res.Tokens.After)
				}
				have := map[string]bool{}
				for _, l := range strings.Split(res.Content, "\n") {
					if strings.HasPrefix(l, "  ") { // candidates; heads and feet are not indented
						have[l] = true
					}
				}
				for l := range prev {
					if !have[l] {
						t.Errorf("budget %d drops %q, shown at budget %d", b, l, prevBudget)
						break
					}
				}
				if len(have) < len(prev) {
					t.Errorf("budget %d shows %d lines, budget %d showed %d", b, len(have), prevBudget, len(prev))
				}
				prev, prevBudget = have, b
			}
		})
	}
}

// TestTextViewAnswers checks that the view at 2,000 tokens shows what is
// asked first of a failed run: its cause and its end, with exact counts.
func TestTextViewAnswers(t *testing.T) {
	p, _, _ := storePipeline(t)
	want := map[string][]string{
		"go-test-json.jsonl": {
			"tests (subtests counted, a parent fails with its subtest): 397 (391 passed, 5 failed, 1 skipped)",
			"example.com/shop/pricing TestDiscountRounding",
			"discount rounding: got 1999 cents, want 2000 cents",
			"legacy/legacy.go:3:25: undefined: undefinedThing",
			"FAIL\texample.com/shop/search",
		},
		"go-build-fail.txt": {
			"orders/notify.go:5:9: undefined: sendMail",
			"orders/status.go:15:22: cannot use s (variable of int type Status) as float64 value in variable declaration",
		},
		"npm-install-fail.txt": {"npm error command sh -c node build.js", "gyp ERR! stack Error: not found: make"},
		"apt-cache-show.txt":   {"400 records", `Architecture: "amd64" 254, "all" 146`, `Priority: "optional" 398, "extra" 1 (allure), "important" 1 (adduser)`},
		"dpkg-status.txt":      {"703 records"},
		"dpkg-log.txt":         {`"upgrade" 41`, "5,064 lines", "purge cmake-data:all"},
	}
	for name, needles := range want {
		data, err := os.ReadFile("../testdata/captured/" + name)
		if err != nil {
			t.Fatal(err)
		}
		res := runView(t, p, name, data, 2000)
		for _, n := range needles {
			if !strings.Contains(res.Content, n) {
				t.Errorf("%s at 2,000 tokens: %q not shown\n%s", name, n, res.Content)
			}
		}
	}
}

// TestTextViewQueriesRun runs every query the text views suggest, as
// written, on the stored original: each runs, and the error-line query
// finds exactly as many lines as the view says there are.
func TestTextViewQueriesRun(t *testing.T) {
	p, _, st := storePipeline(t)
	c := newCounter(t)
	// A deadline that catches a hang, not a slow run on a loaded
	// machine: the test asks whether each query runs as written.
	q, err := query.New(st, c, query.Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	jqRe := regexp.MustCompile(`compact artifact query (\S+) --jq '((?:[^']|'\\'')*)'`)
	sliceRe := regexp.MustCompile(`compact artifact slice (\S+) --offset (\d+) --limit (\d+)`)
	countRe := regexp.MustCompile(`error lines: ([\d,]+) \(`)
	ran := 0
	for _, name := range textViewFiles {
		data, err := os.ReadFile("../testdata/captured/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range []int{800, 4000} {
			res := runView(t, p, name, data, b)
			for _, m := range jqRe.FindAllStringSubmatch(res.Content, -1) {
				filter := strings.ReplaceAll(m[2], `'\''`, `'`)
				ans, err := q.JQ(context.Background(), m[1], filter, 1_000_000)
				if err != nil {
					t.Errorf("%s at %d: %q: %v", name, b, filter, err)
					continue
				}
				ran++
				if strings.Contains(res.Content, "all error lines: compact artifact query") && strings.Contains(filter, "gsub(") && !strings.Contains(filter, "| not) and test(") {
					cm := countRe.FindStringSubmatch(res.Content)
					want, _ := strconv.Atoi(strings.ReplaceAll(cm[1], ",", ""))
					if ans.Total != want {
						t.Errorf("%s: the error query yields %d lines, the view says %d", name, ans.Total, want)
					}
				}
			}
			for _, m := range sliceRe.FindAllStringSubmatch(res.Content, -1) {
				off, _ := strconv.Atoi(m[2])
				lim, _ := strconv.Atoi(m[3])
				if _, err := q.Slice(context.Background(), m[1], query.SliceOptions{Offset: off, Limit: lim}, 1_000_000); err != nil {
					t.Errorf("%s at %d: slice %d %d: %v", name, b, off, lim, err)
				}
				ran++
			}
		}
	}
	if ran < len(textViewFiles) {
		t.Errorf("only %d suggested queries ran", ran)
	}
}

// TestTextFactsNotice checks that a text kept whole (level none) carries
// the facts its view states first, so that a larger budget never states
// fewer of them: the whole ls -l table at 40,000 tokens names its rows
// and the value counts of its columns, as its view at 2,000 tokens does,
// and the payload after the notice is the text unchanged. Fails on the
// old code (text got no notice).
func TestTextFactsNotice(t *testing.T) {
	p, _, _ := storePipeline(t)
	data, err := os.ReadFile("../testdata/captured/ls-l-usr-bin.txt")
	if err != nil {
		t.Fatal(err)
	}
	small := runView(t, p, "fs.ls", data, 2000)
	whole := runView(t, p, "fs.ls", data, 40000)
	notice, payload := budget.SplitNotice(whole.Content)
	if whole.Level != schemas.LevelNone || payload != string(data) || whole.Tokens.After > 40000 {
		t.Fatalf("level %s, %d tokens, payload %.80q", whole.Level, whole.Tokens.After, payload)
	}
	for _, want := range []string{
		budget.FactsHead + "; text: 1,144 lines; kind: text",
		`; column 1: "-rwxr-xr-x" 746, "lrwxrwxrwx" 383, "-rwsr-xr-x" 11, "-rwxr-sr-x" 3`,
		"; column 5: numbers, sum 311475308, min 1, max 98932688",
		"; column 8: 1,143 distinct values (each in one row)",
	} {
		if !strings.Contains(notice, want) {
			t.Errorf("notice lacks %q:\n%s", want, notice)
		}
	}
	if !strings.Contains(small.Content, `"lrwxrwxrwx" 383`) {
		t.Errorf("the view at 2,000 tokens lacks the count the notice states")
	}
}
