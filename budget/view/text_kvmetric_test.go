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

// TestMetricFamilyBySuffix checks that a sample joins the family the last
// # line described only under the family's name or the name with a suffix
// the exposition formats define (_sum, _count, _total...), not under any
// longer name that starts with it: up and upstream_latency_seconds,
// node_load1 and node_load15 are separate families.
func TestMetricFamilyBySuffix(t *testing.T) {
	var b strings.Builder
	b.WriteString("# HELP up Whether the target is up.\n# TYPE up gauge\n")
	for i := range 30 {
		fmt.Fprintf(&b, "up{instance=\"h%d:9100\"} %d\n", i, min(1, i%7))
	}
	for i := range 30 {
		fmt.Fprintf(&b, "upstream_latency_seconds{instance=\"h%d:9100\"} 0.%d\n", i, 100+i)
	}
	for i := range 30 {
		fmt.Fprintf(&b, "upstream_errors_total{instance=\"h%d:9100\"} %d\n", i, 3*i)
	}
	b.WriteString("# HELP node_load1 1m load average.\n# TYPE node_load1 gauge\nnode_load1 0.21\n")
	for i := range 20 {
		fmt.Fprintf(&b, "node_load15{cpu=\"%d\"} %d.5\n", i, i)
	}
	b.WriteString("# HELP rpc_seconds RPC latency.\n# TYPE rpc_seconds summary\n")
	b.WriteString("rpc_seconds{quantile=\"0.5\"} 0.2\nrpc_seconds{quantile=\"0.9\"} 0.7\nrpc_seconds_sum 12.5\nrpc_seconds_count 40\n")
	b.WriteString("# HELP go_goroutines Number of goroutines.\n# TYPE go_goroutines gauge\ngo_goroutines 12\n")
	views, _ := kvView(t, []byte(b.String()), []int{4000})
	text := views[4000]
	for _, want := range []string{
		"families (a name, its samples with their {labels}, and the # lines that describe it): 7; 2 of one sample (0 of them with labels), 5 of several samples;",
		"up{instance} (30 samples): values 1 25, 0 5",
		"upstream_latency_seconds{instance} (30 samples)",
		"upstream_errors_total{instance} (30 samples)",
		"node_load15{cpu} (20 samples)",
		"rpc_seconds{quantile} (4 samples, 2 of them under longer names)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}

// TestMetricCountsPastKept checks the counts the view of metric samples
// states past the samples it keeps (metricMaxSamples) and the families it
// profiles in full: every family and every sample is counted, the
// listing says it is of the first samples, and the foot's count of
// entries not shown is the entries less the samples the view lists.
func TestMetricCountsPastKept(t *testing.T) {
	listed := regexp.MustCompile(`(?m)(?:^  |; )((?:m_\d+\{inst="h\d+"\}|req_total\{path="/p/\d+"\}) \d+)`)
	cases := []struct {
		name        string
		gen         func(*strings.Builder)
		n           int
		want        []string
		famsOfFirst bool
	}{
		{"one-sample families", func(b *strings.Builder) {
			for i := range 30000 {
				fmt.Fprintf(b, "# HELP m_%d help for %d\n# TYPE m_%d gauge\nm_%d{inst=\"h%d\"} %d\n", i, i, i, i, i%50, i%1000)
			}
		}, 30000, []string{
			"families (a name, its samples with their {labels}, and the # lines that describe it): 30,000; 30,000 of one sample (30,000 of them with labels), 0 of several samples; the first 20,000 families in line order are profiled",
			"the other 10,000 (10,000 samples) only counted",
			" of 30,000, from lines ",
			", among the first 8,192 samples kept):",
		}, true},
		{"one family", func(b *strings.Builder) {
			b.WriteString("# HELP req_total requests\n# TYPE req_total counter\n")
			for i := range 20000 {
				fmt.Fprintf(b, "req_total{path=\"/p/%d\"} %d\n", i, i%977)
			}
		}, 20000, []string{
			"families with the most samples: req_total 20,000",
			"req_total{path} (20,000 samples)",
			"(a family at a time; showing ",
			", among the first 8,192 samples kept):",
		}, false},
	}
	for _, c := range cases {
		var b strings.Builder
		c.gen(&b)
		views, _ := kvView(t, []byte(b.String()), []int{2000, 4000})
		for bud, text := range views {
			for _, want := range c.want {
				if !strings.Contains(text, want) {
					t.Errorf("%s at %d: no %q in\n%s", c.name, bud, want, text)
				}
			}
			shown := map[string]bool{}
			for _, m := range listed.FindAllStringSubmatch(text, -1) {
				shown[m[1]] = true
			}
			want := fmt.Sprintf("%s of %s entries not shown", commas(c.n-len(shown)), commas(c.n))
			if !strings.Contains(text, want) {
				t.Errorf("%s at %d: %d samples listed; no %q in\n%s", c.name, bud, len(shown), want, text)
			}
		}
	}
}

// TestMetricSumAndCommaLabels checks that a family's sum of integers is
// stated exactly (not rounded to 6 digits) and one of fractions as
// "about", and that label values holding a comma are written quoted, so
// that "c3, extra" reads as one value.
func TestMetricSumAndCommaLabels(t *testing.T) {
	var b strings.Builder
	b.WriteString("# HELP big_total a counter\n# TYPE big_total counter\n")
	sum := 0
	for i := range 30 {
		fmt.Fprintf(&b, "big_total{i=\"%d\"} %d\n", i, 123456789+i)
		sum += 123456789 + i
	}
	b.WriteString("# HELP lat_seconds a gauge\n# TYPE lat_seconds gauge\n")
	for i := range 30 {
		fmt.Fprintf(&b, "lat_seconds{i=\"%d\"} 0.%03d\n", i, 100+i)
	}
	b.WriteString("# HELP scrape_ok a gauge\n# TYPE scrape_ok gauge\n")
	for i := range 40 {
		v := 1
		if i == 3 || i == 7 {
			v = 0
		}
		fmt.Fprintf(&b, "scrape_ok{collector=\"c%d, extra\"} %d\n", i, v)
	}
	views, _ := kvView(t, []byte(b.String()), []int{4000})
	text := views[4000]
	for _, want := range []string{
		fmt.Sprintf("; sum %d", sum),
		"lat_seconds{i} (30 samples); smallest 0.1 {i=\"0\"}, largest 0.129 {i=\"29\"}; sum about 3.435",
		`scrape_ok{collector} (40 samples): values 1 38, 0 2 (collector: "c3, extra", "c7, extra")`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in\n%s", want, text)
		}
	}
}
