package view

import (
	"strconv"
	"strings"
)

// Time series: samples named by their time.
//
// A collection whose records are named by a time (sadf's, mpstat's and
// iostat's statistics[]: one sample a second or two, each named by its
// timestamp, holding the measures of that moment) is read as a series of
// measures. Its readers ask when a measure peaked ("at what time was the
// disk busiest") and how it ended, not which values are rare: a CPU's
// steal time of 0.23 seen once among 270 values is a measure, not an
// exception. So, in such a collection:
//   - a numeric field's profile line names the sample of its least and
//     its largest value, as the tool wrote it ("max 81.60 at 07:29:59"),
//     the first sample holding it (Field's minRec and maxRec, kept by
//     the profile's pass: nothing per record; "first at" when the
//     profile cannot tell whether another sample holds it too, "at"
//     when it is the only one, no sample when several hold it), and its
//     mean, not its
//     sum nor its number of distinct values (a rate's or a
//     percentage's sum over the samples says nothing: the line pays for
//     the samples it names);
//   - (more to come: the last sample whole, the measures of each CPU or
//     disk of a sample's arrays apart.)

// seriesMin is the fewest records a series has.
const seriesMin = 8

// series reports whether the collection is a series of samples named by
// their time: its identity is in every record (of at least seriesMin)
// and every value of it is a time or holds a clock time (h:mm:ss) at one
// place of one shape ("07:30:29", "11/27/26 07:29:33"), and its records
// are samples, not events (logLike).
func (k *coll) series() bool {
	if k.isSeries != 0 {
		return k.isSeries > 0
	}
	k.isSeries = -1
	p := k.p
	f := p.Identity
	if f == nil || p.Map || p.Records < seriesMin || f.Present != p.Records || f.Values != p.Records {
		return false
	}
	if k.logLike() {
		return false
	}
	if f.TimeN == f.Values {
		k.isSeries = 1
		return true
	}
	if len(f.Patterns) != 1 || f.Unshaped > 0 {
		return false
	}
	for shape := range f.Patterns {
		if strings.Contains(shape, "#:#:#") {
			k.isSeries = 1
		}
	}
	return k.isSeries > 0
}

// logLike reports whether the records are events rather than samples:
// a member of the record or of its objects (not under an array: a
// request's req.method and req.path beside a constant msg and level,
// slog's groups), other than the identity, in at least half the
// records, holds strings of more than one value and more than one
// shape (a level, a message, a method, a path),
// mostly strings (a measure with one "n/a" is still a measure; a date of
// one shape, "11/27/26", is part of a sample's time). A log whose every line
// has its own millisecond time is not a series: its sizes' and
// durations' sums are what a reader asks for (rev17 R6). A sample's
// strings are under its arrays (a CPU's or a disk's name) or constant
// (its host).
func (k *coll) logLike() bool {
	p := k.p
	for _, g := range p.Fields {
		if g == p.Identity || g.inArr || g.Types&tString == 0 || g.Distinct < 2 ||
			2*g.Present < p.Records || 2*g.ownNumbers() >= g.Values || len(g.Patterns) == 1 {
			continue
		}
		return true
	}
	return false
}

// measure reports whether f is a measure of a series: numbers of its
// own (not written as strings) in every value it has, not a place or a
// code (candidates.go).
func (k *coll) measure(f *Field) bool {
	return k.series() && f != k.p.Identity && f.NumN > 0 && f.ownNumbers() == f.Values-f.Nulls &&
		!refNumber(f.Path) && !codeNumber(f.Path)
}

// extreme returns x, the least or the largest number of the measure f,
// as the sample raw (a record's text) writes it ("81.60", as the tool
// wrote it: a reader looks it up as written), followed by " at
// <identity>" of that sample when it is the only one holding x, by
// " first at <identity>" when the profile did not count f's values (too
// many of them) and so cannot tell, and by nothing when several samples
// hold x (a measure's 0 in most samples names none of them).
func (k *coll) extreme(f *Field, x float64, raw []byte) string {
	text := numExact(x)
	if raw == nil || k.p.Identity == nil {
		return text
	}
	at := ""
	k.p.leavesOf(raw, k.p.mask(f, k.p.Identity), func(g *Field, v []byte) {
		switch {
		case g == k.p.Identity && at == "":
			at = string(v)
		case g == f && text == numExact(x) && len(v) > 0 && v[0] != '"':
			if y, err := strconv.ParseFloat(string(v), 64); err == nil && y == x {
				text = string(v)
			}
		}
	})
	// The profile counts each value only while a field has few of them
	// (Counts is nil past that): then whether another sample holds x too
	// is not known, and the sample named is said to be the first
	// ("min 0.00 first at 04:33:55"), never the only one.
	sep := " first at "
	if f.Counts != nil {
		n := 0
		for v, c := range f.Counts {
			if y, err := strconv.ParseFloat(v, 64); err == nil && y == x {
				n += c
			}
		}
		if n > 1 {
			return text
		}
		sep = " at "
	}
	if at == "" {
		return text
	}
	if s, err := strconv.Unquote(at); err == nil {
		at = s
	}
	return text + sep + cell(at, 40)
}
