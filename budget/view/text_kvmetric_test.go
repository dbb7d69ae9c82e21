package view_test

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestMetricSampleFamilies checks the view of a Prometheus text
// exposition (node exporter's /metrics) against the lines read by an
// independent pattern: the samples are key/value entries, the families
// and their "# TYPE" kinds are counted, a family of few values names the
// label sets of its minority value (the collectors whose scrape failed),
// a family of many values its largest sample (the slowest collector), and
// the samples of the one-sample families are listed as written (the
// value of node_procs_running); a bigger budget shows every line a
// smaller one does.
func TestMetricSampleFamilies(t *testing.T) {
	data := readFile(t, "../../testdata/captured/node-exporter-metrics.txt")
	sample := regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (\S+)$`)
	kinds := map[string]int{}
	families := 0
	type smp struct{ labels, val string }
	byName := map[string][]smp{}
	samples := 0
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if f := strings.Fields(l); len(f) == 4 && f[0] == "#" && f[1] == "TYPE" {
			families++
			kinds[f[3]]++
			continue
		}
		if m := sample.FindStringSubmatch(l); m != nil {
			samples++
			byName[m[1]] = append(byName[m[1]], smp{m[2], m[3]})
		}
	}
	budgets := []int{2000, 4000, 8000}
	views, _ := kvView(t, data, budgets)
	var ks []string
	for k, n := range kinds {
		ks = append(ks, fmt.Sprintf("%s %d", k, n))
	}
	sort.Slice(ks, func(i, j int) bool {
		ni, _ := strconv.Atoi(strings.Fields(ks[i])[1])
		nj, _ := strconv.Atoi(strings.Fields(ks[j])[1])
		return ni > nj
	})
	// The scrape results: the collectors whose success is 0, in line order.
	var failed []string
	for _, s := range byName["node_scrape_collector_success"] {
		if s.val == "0" {
			failed = append(failed, strings.TrimSuffix(strings.TrimPrefix(s.labels, `{collector="`), `"}`))
		}
	}
	ok := len(byName["node_scrape_collector_success"]) - len(failed)
	slowest, most := "", -1.0
	for _, s := range byName["node_scrape_collector_duration_seconds"] {
		if x, _ := strconv.ParseFloat(s.val, 64); x > most {
			slowest, most = s.labels, x
		}
	}
	procs := byName["node_procs_running"][0].val
	var prev string
	for _, b := range budgets {
		text := views[b]
		name := fmt.Sprintf("at %d", b)
		if !strings.Contains(text, "; kind: key/value lines; "+commas(samples)+" entries") {
			t.Fatalf("%s: not read as %d samples:\n%s", name, samples, text)
		}
		want := fmt.Sprintf("families (a name, its samples with their {labels}, and the # lines that describe it): %d;", families)
		if !strings.Contains(text, want) {
			t.Errorf("%s: no %q", name, want)
		}
		if want := "# TYPE " + strconv.Itoa(families) + " (" + strings.Join(ks, ", ") + ")"; !strings.Contains(text, want) {
			t.Errorf("%s: no %q", name, want)
		}
		want = fmt.Sprintf("node_scrape_collector_success{collector} (%d samples): values 1 %d, 0 %d (collector: %s)",
			len(byName["node_scrape_collector_success"]), ok, len(failed), strings.Join(failed, ", "))
		if !strings.Contains(text, want) {
			t.Errorf("%s: no %q", name, want)
		}
		want = fmt.Sprintf("largest %s %s", strconv.FormatFloat(most, 'g', -1, 64), slowest)
		if !strings.Contains(text, want) {
			t.Errorf("%s: the slowest collector: no %q", name, want)
		}
		if b == 8000 && !regexp.MustCompile(`(^|; | )node_procs_running `+regexp.QuoteMeta(procs)+`(;|\n)`).MatchString(text) {
			t.Errorf("%s: node_procs_running %s not listed", name, procs)
		}
		// Every sample the listing of one-sample families states is
		// one of the text's samples as written.
		for _, l := range strings.Split(text, "\n") {
			if !strings.HasPrefix(l, "  ") || !strings.Contains(l, "; ") || strings.Contains(l, "(") && strings.Contains(l, "samples") {
				continue
			}
			for _, e := range strings.Split(strings.TrimSpace(l), "; ") {
				m := sample.FindStringSubmatch(e)
				if m == nil {
					continue
				}
				ss := byName[m[1]]
				if len(ss) != 1 || ss[0].labels != m[2] || ss[0].val != m[3] {
					t.Errorf("%s: %q is not a one-sample family's sample as written", name, e)
				}
			}
		}
		for _, l := range strings.Split(prev, "\n") {
			if strings.HasPrefix(l, "  ") && !strings.Contains(text, l+"\n") {
				t.Errorf("%s: lost %q of the smaller view", name, l)
			}
		}
		prev = text
	}
}
