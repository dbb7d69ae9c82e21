package view_test

import (
	"fmt"
	"strings"
	"testing"
)

// suitesDoc is a report in the shape of gtest's JSON output: run totals,
// then suites, each a header (name, counts, time) holding its tests
// under "testsuite"; test k of suite i is on line 10*i+k, and suite 7's
// third test failed.
func suitesDoc(suites int) []byte {
	var b strings.Builder
	b.WriteString(`{"tests": 0, "failures": 1, "name": "AllTests", "testsuites": [`)
	for i := range suites {
		if i > 0 {
			b.WriteString(",")
		}
		n := 3 + i%5
		fails := 0
		if i == 7 {
			fails = 1
		}
		fmt.Fprintf(&b, `{"name": "Suite%02d", "tests": %d, "failures": %d, "time": "0s", "testsuite": [`, i, n, fails)
		for k := range n {
			if k > 0 {
				b.WriteString(",")
			}
			failure := ""
			if i == 7 && k == 2 {
				failure = `, "failures": [{"failure": "expected 1, got 2", "type": ""}]`
			}
			fmt.Fprintf(&b, `{"name": "Case%02d_%d", "file": "test/suite_%02d_test.cc", "line": %d, "status": "RUN", "result": "COMPLETED", "time": "0s", "classname": "Suite%02d"%s}`,
				i, k, i, 10*i+k, i, failure)
		}
		b.WriteString("]}")
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// TestNestedListIsACollection: records that each hold one list of
// objects that is most of their text (test suites holding their tests)
// keep their section, and the items are a collection of their own
// (.testsuites[].testsuite), counted exactly, with rows and an index
// that name a test and its line; the suites' rows no longer repeat the
// tests' fields cut at four items. Before, a test in the middle was
// only in a suite row's list cut at 4 names ("Case26_0,Case26_1,…"),
// its line in none.
func TestNestedListIsACollection(t *testing.T) {
	data := suitesDoc(40)
	total := jqAll(t, data, `[.testsuites[].testsuite[]] | length`)[0].(int)
	v := buildView(t, inputOf(t, data, 8000))
	var items string
	for _, it := range v.Items() {
		if it.Of == ".testsuites" {
			items = it.Path
			if it.Count != total {
				t.Errorf("%s counts %d, jq %d", it.Path, it.Count, total)
			}
		}
	}
	if items != ".testsuites[].testsuite" {
		t.Fatalf("items %+v, want .testsuites[].testsuite", v.Items())
	}
	text := fillAt(t, v, 8000).Text
	for _, want := range []string{
		fmt.Sprintf("the 40 records of .testsuites hold %d items in their testsuite lists (3-7 each): the collection .testsuites[].testsuite below", total),
		fmt.Sprintf("collection .testsuites[].testsuite (array): %d records", total),
		"Case07_2\t", // the failed test, a row
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the view:\n%s", want, text)
		}
	}
	// A test in the middle, with its line, in the items' index.
	line := jqAll(t, data, `.testsuites[].testsuite[] | select(.name == "Case20_1") | .line`)[0].(float64)
	if !strings.Contains(text, fmt.Sprintf("Case20_1\t%v", line)) {
		t.Errorf("Case20_1 and its line %v are not in the view:\n%s", line, text)
	}
	if strings.Contains(text, "testsuite[].name") {
		t.Errorf("the suites' section still profiles the tests' fields:\n%s", text)
	}
	// A few suites list their tests whole (nested.go): no collection.
	if v := buildView(t, inputOf(t, suitesDoc(14), 4000)); len(v.Items()) != 0 {
		t.Errorf("14 suites: items %+v, want none", v.Items())
	}
}

// TestNestedListNeedsMostOfTheText: a list that is a small part of its
// records (an issue's labels) stays part of them: no collection of its
// own.
func TestNestedListNeedsMostOfTheText(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 30 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"number": %d, "title": "an issue about the frobnicator number %d and its many knobs", "body": "%s", "labels": [{"name": "bug"}, {"name": "p%d"}, {"name": "x"}]}`,
			i, i, strings.Repeat("words of the body ", 12), i%3)
	}
	b.WriteString("]")
	v := buildView(t, inputOf(t, []byte(b.String()), 4000))
	if len(v.Items()) != 0 {
		t.Errorf("items %+v, want none", v.Items())
	}
}

// TestStringAddressNamesItsRecord: a unique string named like a place
// (terraform's resource address, terraform_data.deployment["api-eu-1"])
// names its record when no field is named better: the identity, by
// which the foot's lookup query finds one. A number so named (a byte
// offset) still does not (TestFramesNotByPosition). Before, every
// field named address was skipped as a position: no identity, no
// lookup.
func TestStringAddressNamesItsRecord(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		kind := []string{"deployment", "queue", "dns"}[i%3]
		fmt.Fprintf(&b, `{"address": "terraform_data.%s[\"svc-%02d\"]", "mode": "managed", "name": %q, "index": "svc-%02d", "change": {"actions": ["update"], "after": {"replicas": %d}}}`,
			kind, i, kind, i/2, i%7)
	}
	b.WriteString("]")
	v := buildView(t, inputOf(t, []byte(b.String()), 2000))
	text := fillAt(t, v, 2000).Text
	if !strings.Contains(text, "identity: address\n") || !strings.Contains(text, `one record by its address: `) {
		t.Errorf("address is not the identity:\n%s", text)
	}
}

// clocDoc is a report in the shape of cloc --by-file --json: a header
// first, a member per file {blank, comment, code, language}, and the
// sums last ("SUM"); with sum false the last member is one more file
// that has a field no other file has.
func clocDoc(files int, sum bool) []byte {
	var b strings.Builder
	b.WriteString(`{"header": {"cloc_url": "github.com/AlDanial/cloc", "cloc_version": "1.96", "n_files": ` + fmt.Sprint(files) + `, "n_lines": 9999}`)
	var blank, comment, code int
	for i := range files {
		bl, cm, cd := i%7, 3*i%11, 10+i*i%97
		blank, comment, code = blank+bl, comment+cm, code+cd
		fmt.Fprintf(&b, `, "src/file_%02d.go": {"blank": %d, "comment": %d, "code": %d, "language": "Go"}`, i, bl, cm, cd)
	}
	if sum {
		fmt.Fprintf(&b, `, "SUM": {"blank": %d, "comment": %d, "code": %d, "nFiles": %d}}`, blank, comment, code, files)
	} else {
		b.WriteString(`, "src/last.go": {"blank": 1, "comment": 2, "code": 3, "language": "Go", "generated": true}}`)
	}
	return []byte(b.String())
}

// TestMapSummaryMembers: a map of records whose first member is a header
// (fields no record has) and whose last member is the records' sums is
// a collection of the records only, the summaries shown whole in its
// head: the largest code count is a file's, not the sum's, and the
// path del(.["SUM","header"]) yields exactly the files. Before, the
// header and the sum were two of the records: the largest code was the
// sum's and the count was off by two. A last member that is a record
// with one field more is no summary.
func TestMapSummaryMembers(t *testing.T) {
	data := clocDoc(60, true)
	v := buildView(t, inputOf(t, data, 4000))
	text := fillAt(t, v, 4000).Text
	if len(v.Items()) != 1 || v.Items()[0].Path != `del(.["SUM","header"])` || v.Items()[0].Count != 60 {
		t.Fatalf("items %+v, want del(.[\"SUM\",\"header\"]) of 60:\n%s", v.Items(), text)
	}
	if n := len(jqAll(t, data, `del(.["SUM","header"]) | keys[]`)); n != 60 {
		t.Errorf("the path yields %d keys", n)
	}
	sum := jqAll(t, data, `.SUM.code`)[0].(float64)
	most := jqAll(t, data, `[del(.["SUM","header"])[] | .code] | max`)[0].(float64)
	for _, want := range []string{
		`collection . (map): 62 keys: 2 summary members at its ends`,
		fmt.Sprintf(`SUM: {"blank":`),
		`"cloc_version":"1.96"`,
		fmt.Sprintf("max %v", most),
		`collection del(.["SUM","header"]) (map): 60 records`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in the view:\n%s", want, text)
		}
	}
	if strings.Contains(text, fmt.Sprintf("max %v", sum)) {
		t.Errorf("the sum %v is counted as a file's code:\n%s", sum, text)
	}
	v = buildView(t, inputOf(t, clocDoc(60, false), 4000))
	for _, it := range v.Items() {
		if strings.Contains(it.Path, "src/last.go") {
			t.Errorf("a file with a field more is a summary: %+v", v.Items())
		}
	}
}
