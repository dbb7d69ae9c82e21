package view

import (
	"strings"
	"testing"
)

// TestPathReWordsSame checks that every pathRe answers as its regular
// expression does (the words, lits, only skip it on paths that cannot
// match), on paths made of the expressions' own words in every case,
// with separators, prefixes and suffixes, camel case, names with spaces
// and letters outside ASCII that fold to ASCII ones (the Kelvin sign,
// the long s).
func TestPathReWordsSame(t *testing.T) {
	if len(pathRes) < 10 {
		t.Fatalf("%d expressions made by mustPathRe", len(pathRes))
	}
	words := []string{"", "x", "name", "Name", "created_at", "updatedAt", "startMs", "s", "k", "ſtatus", "\u212aind", "exit_code", "lineNo", "line-num", "rowNumber", "eventIdx", "media_type", "status.value"}
	for _, r := range pathRes {
		words = append(words, r.lits...)
	}
	seps := []string{"", ".", "_", "]", " ", "X", "é"}
	var paths []string
	for i, w := range words {
		for _, v := range []string{w, strings.ToUpper(w), strings.Title(w)} {
			for _, a := range seps {
				paths = append(paths, a+v, v+a, "spec."+a+v, `"Node `+v+`"`+a, words[(i+1)%len(words)]+a+v)
			}
		}
	}
	skipped := 0
	for _, r := range pathRes {
		if r.lits == nil {
			continue
		}
		for _, p := range paths {
			want := r.re.MatchString(wordsPath(p))
			got := holdsLit(wordsPath(p), r.lits) && want
			if !holdsLit(wordsPath(p), r.lits) {
				skipped++
			}
			if got != want {
				t.Errorf("%s on %q: %v with the words %q, %v without", r.re, p, got, r.lits, want)
			}
		}
	}
	// The words decide most paths without the expression.
	if skipped == 0 {
		t.Errorf("no path answered by the words alone")
	}
	with := 0
	for _, r := range pathRes {
		if r.lits != nil {
			with++
			t.Logf("%s: %q", r.re, r.lits)
		} else {
			t.Logf("no words for %s", r.re)
		}
	}
	if with < len(pathRes)-2 {
		t.Errorf("words for %d of %d expressions", with, len(pathRes))
	}
}

// FuzzPathReWords checks the words of every pathRe against it on any
// path.
func FuzzPathReWords(f *testing.F) {
	for _, s := range []string{"status", "metadata.name", "x.createdAt", "ſtate", "\u212aind", `"Actual Total Time"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, r := range pathRes {
			if r.lits == nil {
				continue
			}
			if want := r.re.MatchString(p); want && !holdsLit(p, r.lits) {
				t.Errorf("%s matches %q, which holds none of %q", r.re, p, r.lits)
			}
		}
	})
}
