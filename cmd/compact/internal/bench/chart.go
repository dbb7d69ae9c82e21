package bench

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"strings"
	"unicode/utf8"
)

// The bench report's charts are SVG laid out here rather than by a plot
// library: every text's box is computed from a conservative estimate of
// its width, and the layout reserves that room (label columns as wide as
// the longest label, a legend that wraps, tick labels kept inside), so no
// label overlaps another or leaves the chart. TestChartLayoutInBrowser
// checks that in Chromium with the real font.

// palette colours the bars of a chart, one per series.
var palette = []string{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"}

// series is one set of bars of a grouped bar chart.
type series struct {
	name   string
	values []float64
}

const (
	chartFont  = 12.0 // px, every text but the title
	titleFont  = 14.0
	charW      = 0.62 // an upper bound of a sans-serif character's width, in ems
	chartPad   = 12.0
	swatch     = 11.0
	legendGap  = 18.0
	minChartW  = 640.0
	plotMinLen = 360.0
)

// textWidth is a generous estimate of the width of s at size px.
func textWidth(s string, px float64) float64 {
	return float64(utf8.RuneCountInString(s)) * px * charW
}

// svgText is one <text> element.
func svgText(b *strings.Builder, x, y, px float64, anchor, class, s string) {
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%.0f" text-anchor="%s" class="%s">%s</text>`+"\n", x, y, px, anchor, class, html.EscapeString(s))
}

// niceStep picks a tick step of 1, 2 or 5 × 10^k giving at most n ticks.
func niceStep(max float64, n int) float64 {
	if max <= 0 {
		return 1
	}
	raw := max / float64(n)
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func tickLabel(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%g", v)
}

// barChart renders a grouped (or stacked) bar chart as inline SVG.
// Horizontal charts put the categories on the Y axis, which suits long
// names; categories are drawn in the order given, top to bottom or left
// to right. axisMax is the value axis' maximum (raised to the largest bar
// or stack when that is larger).
func barChart(title, axis string, cats []string, ss []series, stacked, horizontal bool, axisMax float64) (template.HTML, error) {
	for _, s := range ss {
		if len(s.values) != len(cats) {
			return "", fmt.Errorf("chart %q: series %q has %d values for %d categories", title, s.name, len(s.values), len(cats))
		}
	}
	for i := range cats {
		sum := 0.0
		for _, s := range ss {
			if s.values[i] < 0 || math.IsNaN(s.values[i]) || math.IsInf(s.values[i], 0) {
				return "", fmt.Errorf("chart %q: bad value %v", title, s.values[i])
			}
			if stacked {
				sum += s.values[i]
			} else {
				sum = max(sum, s.values[i])
			}
		}
		axisMax = max(axisMax, sum)
	}
	if axisMax <= 0 {
		axisMax = 1
	}
	step := niceStep(axisMax, 5)
	top := math.Ceil(axisMax/step) * step

	// Category labels' room.
	catW := 0.0
	for _, c := range cats {
		catW = max(catW, textWidth(c, chartFont))
	}
	tickW := textWidth(tickLabel(top), chartFont)

	// Bars per category and band sizes.
	bars := len(ss)
	if stacked || bars == 0 {
		bars = 1
	}
	var w, plotX, plotY, plotW, plotH float64
	var band float64
	if horizontal {
		band = float64(bars)*12 + 10
		plotX = chartPad + catW + 8
		w = max(minChartW, plotX+plotMinLen+chartPad+tickW/2)
		plotW = w - plotX - chartPad - tickW/2
		plotH = band * float64(len(cats))
	} else {
		band = max(float64(bars)*22+16, catW+12)
		plotX = chartPad + textWidth(axis, chartFont)*0 + tickW + 8 + chartFont + 8 // room for the rotated axis label and ticks
		plotW = band * float64(len(cats))
		w = max(minChartW, plotX+plotW+chartPad)
		plotW = w - plotX - chartPad
		band = plotW / float64(max(len(cats), 1))
		plotH = 220
	}

	// Title and legend rows, wrapped to the width.
	var b strings.Builder
	y := chartPad + titleFont
	var body strings.Builder
	svgText(&body, w/2, y, titleFont, "middle", "title", title)
	y += 10
	type item struct {
		x, y float64
		name string
		col  string
	}
	var legend []item
	lx, ly := chartPad, y+chartFont
	for i, s := range ss {
		iw := swatch + 5 + textWidth(s.name, chartFont)
		if lx > chartPad && lx+iw > w-chartPad {
			lx, ly = chartPad, ly+chartFont+8
		}
		legend = append(legend, item{lx, ly, s.name, palette[i%len(palette)]})
		lx += iw + legendGap
	}
	for _, it := range legend {
		fmt.Fprintf(&body, `<rect x="%.1f" y="%.1f" width="%.0f" height="%.0f" fill="%s"/>`+"\n", it.x, it.y-swatch+1, swatch, swatch, it.col)
		svgText(&body, it.x+swatch+5, it.y, chartFont, "start", "legend", it.name)
	}
	plotY = ly + 14

	scale := func(v float64) float64 {
		if horizontal {
			return v / top * plotW
		}
		return v / top * plotH
	}
	// Grid and ticks.
	for v := 0.0; v <= top+step/2; v += step {
		if horizontal {
			x := plotX + scale(v)
			fmt.Fprintf(&body, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/>`+"\n", x, plotY, x, plotY+plotH)
			svgText(&body, x, plotY+plotH+chartFont+4, chartFont, "middle", "tick", tickLabel(v))
		} else {
			yy := plotY + plotH - scale(v)
			fmt.Fprintf(&body, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" class="grid"/>`+"\n", plotX, yy, plotX+plotW, yy)
			svgText(&body, plotX-6, yy+chartFont/3, chartFont, "end", "tick", tickLabel(v))
		}
	}
	// Bars and category labels.
	for i, c := range cats {
		start := 0.0
		for j, s := range ss {
			v := s.values[i]
			col := palette[j%len(palette)]
			var x, yy, bw, bh float64
			if horizontal {
				rowY := plotY + band*float64(i) + 5
				slot := 12.0
				if stacked {
					x, yy, bw, bh = plotX+scale(start), rowY, scale(v), band-10
				} else {
					x, yy, bw, bh = plotX, rowY+slot*float64(j), scale(v), slot-2
				}
			} else {
				colX := plotX + band*float64(i)
				inner := band - 16
				if stacked {
					bw = min(inner, 60)
					x = colX + (band-bw)/2
					yy, bh = plotY+plotH-scale(start+v), scale(v)
				} else {
					bw = min(inner/float64(len(ss)), 30)
					x = colX + (band-bw*float64(len(ss)))/2 + bw*float64(j)
					yy, bh = plotY+plotH-scale(v), scale(v)
				}
			}
			if stacked {
				start += v
			}
			fmt.Fprintf(&body, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s %s</title></rect>`+"\n",
				x, yy, max(bw, 0), max(bh, 0), col, html.EscapeString(c), html.EscapeString(s.name), tickLabel(math.Round(v*10)/10))
		}
		if horizontal {
			svgText(&body, plotX-8, plotY+band*float64(i)+band/2+chartFont/3, chartFont, "end", "cat", c)
		} else {
			svgText(&body, plotX+band*float64(i)+band/2, plotY+plotH+chartFont+4, chartFont, "middle", "cat", c)
		}
	}
	fmt.Fprintf(&body, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" class="frame"/>`+"\n", plotX, plotY, plotW, plotH)
	// The value axis' label.
	h := plotY + plotH + chartFont + 4
	if horizontal {
		h += chartFont + 10
		svgText(&body, plotX+plotW/2, h, chartFont, "middle", "axis", axis)
	} else {
		h += 8
		cx, cy := chartPad+chartFont, plotY+plotH/2
		fmt.Fprintf(&body, `<text x="%.1f" y="%.1f" font-size="%.0f" text-anchor="middle" class="axis" transform="rotate(-90 %.1f %.1f)">%s</text>`+"\n",
			cx, cy, chartFont, cx, cy, html.EscapeString(axis))
	}
	h += chartPad
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" role="img" aria-label="%s">`+"\n",
		w, h, w, h, html.EscapeString(title))
	b.WriteString(`<style>.grid{stroke:#e4e4e4}.frame{fill:none;stroke:#999}.title{font-weight:bold}text{fill:#222}</style>` + "\n")
	b.WriteString(body.String())
	b.WriteString("</svg>\n")
	return template.HTML(b.String()), nil
}
