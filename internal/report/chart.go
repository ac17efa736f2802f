package report

import (
	"fmt"
	"html"
	"math"
	"regexp"
	"strings"
)

// ChartKind is how a chart draws its figures.
type ChartKind int

const (
	// Bars draws a bar per engine in each group: one figure per step or
	// benchmark.
	Bars ChartKind = iota
	// Lines draws a line per engine through the groups: a figure that
	// evolves (the size after each step) or a distribution (percentiles).
	Lines
)

// Chart is a figure of every engine over groups (steps, benchmarks,
// percentiles), drawn as inline SVG. The value axis is logarithmic when
// the figures span more than maxLinearRatio, so that a step that takes
// microseconds shows beside one that takes minutes. A chart with Panels
// is a set of small charts under one title, each with its own axis.
type Chart struct {
	Title  string
	Note   string // what is measured, and which way is better
	Kind   ChartKind
	Groups []string
	Series []ChartSeries // one per engine, in the tables' column order
	Format func(float64) string
	// Unit picks nice axis steps: "bytes" steps in powers of two.
	Unit string
	// Linear keeps the value axis linear however far the figures spread:
	// changes in percent, which may be negative or near zero.
	Linear bool
	Panels []Chart
	// Stack names the parts of stacked bars (Point.Stack), bottom first.
	Stack []string
}

// ChartSeries is one engine's figures, one Point per group.
type ChartSeries struct {
	Name   string
	Points []Point
}

// Point is one figure: its median and spread over runs (N 0 if the
// engine has no such figure), and whether its step failed.
type Point struct {
	Stats
	Failed bool
	// Faint draws the point pale: a change within the noise.
	Faint bool
	// Mark rings the point: an event in it, such as a write stall.
	Mark bool
	// Runs are the figure of each run the point is the median of, drawn
	// as dots beside it by a line chart so that the spread is seen run by
	// run; nil draws none.
	Runs []float64
	// Stack splits a bar into parts, bottom first, each as tall as its
	// share of their sum, in the engine's color, paler the higher it is;
	// nil for a bar of one piece.
	Stack []float64
}

// maxLinearRatio is the largest ratio of the largest to the smallest
// figure a linear axis shows; beyond it bars would be invisible.
const maxLinearRatio = 50

// palette holds the engines' colors: Tableau 10, distinct from each
// other, readable on white and in grey print, then the lighter ten of
// Tableau 20 for the eleventh engine on (every Go engine with -engine
// all, the JVM systems beside them).
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
	"#a0cbe8", "#ffbe7d", "#ff9d9a", "#86bcb6", "#8cd17d", "#f1ce63", "#d4a6c8", "#79706e", "#d7b5a6", "#499894"}

// markColor rings marked points: no engine's color.
const markColor = "#222"

// maxMarkedGroups is the most groups a line chart draws every point's
// marker for.
const maxMarkedGroups = 60

// Color is the color of the i-th engine.
func Color(i int) string { return palette[i%len(palette)] }

// Chart sizes in SVG units; the SVG scales to the page's width.
const (
	chartW, chartH = 860, 300
	panelW, panelH = 420, 230
	marginL        = 70
	marginR        = 16
	marginT        = 14
	marginB        = 46
)

// Label fonts in SVG units, as the page's CSS sets them (svg.chart text,
// .panel svg.chart text), and the width of one of their characters as a
// share of the size: DejaVu Sans's digits, the widest common ones, are
// 0.64 em.
const (
	chartFont, panelFont = 11.0, 12.0
	charEm               = 0.64
)

// svg renders c, a chart without panels, w by h units, its labels font
// units high.
func (c Chart) svg(w, h int, font float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="chart" viewBox="0 0 %d %d" role="img" aria-label="%s">`, w, h, html.EscapeString(c.Title))
	ax := c.axis(float64(h-marginT-marginB), float64(marginT))
	if ax == nil {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" class="muted">no figures to show</text></svg>`, w/2, h/2)
		return b.String()
	}
	plotL, plotR := float64(marginL), float64(w-marginR)
	// Grid lines and value labels.
	for _, t := range ax.ticks {
		y := ax.y(t)
		fmt.Fprintf(&b, `<line class="grid" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, plotL, plotR, y, y)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end" dominant-baseline="middle">%s</text>`, plotL-6, y, html.EscapeString(axisLabel(c.Format(t))))
	}
	if ax.log {
		fmt.Fprintf(&b, `<text x="%.1f" y="%d" class="muted" text-anchor="end">log scale</text>`, plotR, marginT-3)
	}
	base := ax.y(ax.lo)
	zero := ax.y(ax.zero())
	fmt.Fprintf(&b, `<line class="axis" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, plotL, plotR, zero, zero)
	fmt.Fprintf(&b, `<line class="axis" x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f"/>`, plotL, plotR, base, base)
	n := len(c.Groups)
	gw := (plotR - plotL) / float64(n)
	charW := font * charEm
	step := labelStep(c.Groups, gw, charW)
	if len(splitLabel(c.Groups[0], int(gw/charW))) > 1 {
		step = 1 // labels of several words (steps) get two lines each
	}
	for i, g := range c.Groups {
		if i%step != 0 {
			continue
		}
		x := plotL + gw*(float64(i)+0.5)
		lines := splitLabel(g, int(gw/charW))
		for k, l := range lines {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, x, base+16+float64(k)*13, html.EscapeString(l))
		}
	}
	if c.Kind == Bars {
		c.bars(&b, ax, plotL, gw)
	} else {
		c.lines(&b, ax, plotL, gw)
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// bars draws a bar per engine in each group, with the min-max range of
// repeated runs as a whisker.
func (c Chart) bars(b *strings.Builder, ax *axis, plotL, gw float64) {
	ns := len(c.Series)
	inner := gw * 0.8
	bw := inner / float64(ns)
	base := ax.y(ax.zero())
	for i := range c.Groups {
		x0 := plotL + gw*float64(i) + (gw-inner)/2
		for s, se := range c.Series {
			p := se.Points[i]
			if !ax.shows(p) {
				continue
			}
			x := x0 + bw*float64(s)
			y := ax.y(p.Median)
			class := ""
			switch {
			case p.Failed:
				class = ` class="failed"`
			case p.Faint:
				class = ` class="faint"`
			}
			if len(p.Stack) > 0 {
				c.stack(b, class, x+0.5, max(bw-1, 1), base, y, Color(s), se.Name, i, p)
			} else {
				fmt.Fprintf(b, `<rect%s x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`,
					class, x+0.5, min(y, base), max(bw-1, 1), max(math.Abs(base-y), 0.5), Color(s), html.EscapeString(c.tooltip(se.Name, i, p)))
			}
			if p.N > 1 {
				whisker(b, ax, x+bw/2, p, bw/4)
			}
		}
	}
}

// stackShades are the opacities of a stacked bar's parts, bottom first.
var stackShades = []float64{1, 0.62, 0.36, 0.16}

// stack draws point i of an engine as a bar from base up to top, split
// into its parts (Point.Stack), each named in its tooltip.
func (c Chart) stack(b *strings.Builder, class string, x, w, base, top float64, color, engine string, i int, p Point) {
	sum := 0.0
	for _, v := range p.Stack {
		sum += max(v, 0)
	}
	y := base
	for k, v := range p.Stack {
		if v <= 0 || sum == 0 {
			continue
		}
		h := (base - top) * v / sum
		name := fmt.Sprintf("part %d", k+1)
		if k < len(c.Stack) {
			name = c.Stack[k]
		}
		tip := fmt.Sprintf("%s, %s: %s %s of %s", engine, c.Groups[i], name, c.Format(v), c.Format(p.Median))
		fmt.Fprintf(b, `<rect%s x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s" fill-opacity="%g"><title>%s</title></rect>`,
			class, x, y-h, w, max(h, 0.5), color, stackShades[min(k, len(stackShades)-1)], html.EscapeString(tip))
		y -= h
	}
}

// lines draws a line per engine through its figures, with a marker at
// each and the min-max range of repeated runs as a whisker. Engines are
// shifted a little apart so that equal figures do not hide each other.
func (c Chart) lines(b *strings.Builder, ax *axis, plotL, gw float64) {
	ns := len(c.Series)
	// Over many groups (a timeline) markers would hide the lines: only
	// marked points get one.
	dense := len(c.Groups) > maxMarkedGroups
	for s, se := range c.Series {
		dx := (float64(s) - float64(ns-1)/2) * min(3, gw/float64(4*ns))
		var path []string
		for i, p := range se.Points {
			if !ax.shows(p) {
				path = append(path, "") // a gap breaks the line
				continue
			}
			path = append(path, fmt.Sprintf("%.1f,%.1f", plotL+gw*(float64(i)+0.5)+dx, ax.y(p.Median)))
		}
		for _, seg := range strings.Split(strings.Join(path, " "), "  ") {
			if seg = strings.TrimSpace(seg); strings.Contains(seg, " ") {
				fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, seg, Color(s))
			}
		}
		for i, p := range se.Points {
			if !ax.shows(p) || dense && !p.Mark {
				continue
			}
			x := plotL + gw*(float64(i)+0.5) + dx
			if p.Mark {
				fmt.Fprintf(b, `<circle class="mark" cx="%.1f" cy="%.1f" r="6" fill="none" stroke="%s" stroke-width="2"><title>%s</title></circle>`,
					x, ax.y(p.Median), markColor, html.EscapeString(c.tooltip(se.Name, i, p)))
			}
			if dense {
				continue
			}
			if p.N > 1 {
				whisker(b, ax, x, p, 3)
			}
			for k, v := range p.Runs {
				if ax.log && v <= 0 {
					continue
				}
				fmt.Fprintf(b, `<circle class="run" cx="%.1f" cy="%.1f" r="2.2" fill="%s" fill-opacity="0.55"><title>%s</title></circle>`,
					x+7+3*float64(k), ax.y(v), Color(s), html.EscapeString(fmt.Sprintf("%s, %s: run %d of %d: %s", se.Name, c.Groups[i], k+1, len(p.Runs), c.Format(v))))
			}
			fill := Color(s)
			if p.Failed {
				fill = "#fff"
			}
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s" stroke="%s" stroke-width="1.5"><title>%s</title></circle>`,
				x, ax.y(p.Median), fill, Color(s), html.EscapeString(c.tooltip(se.Name, i, p)))
		}
	}
}

// whisker draws the min-max range of p at x, with caps half as wide as
// cap.
func whisker(b *strings.Builder, ax *axis, x float64, p Point, cap float64) {
	lo, hi := ax.y(max(p.Min, ax.lo)), ax.y(min(p.Max, ax.hi))
	fmt.Fprintf(b, `<path class="whisker" d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f"/>`,
		x, lo, hi, x-cap, lo, x+cap, x-cap, hi, x+cap)
}

// tooltip describes point i of an engine: the browser shows it on hover.
func (c Chart) tooltip(engine string, i int, p Point) string {
	s := fmt.Sprintf("%s, %s: %s", engine, c.Groups[i], c.Format(p.Median))
	if p.N > 1 {
		s += fmt.Sprintf(" (median of %d runs, %s to %s)", p.N, c.Format(p.Min), c.Format(p.Max))
	}
	if p.Failed {
		s += ", failed"
	}
	if p.Faint {
		s += ", within the noise"
	}
	if p.Mark {
		s += ", marked"
	}
	return s
}

// axis maps figures to heights.
type axis struct {
	lo, hi   float64 // the range shown
	log      bool
	ticks    []float64
	top, len float64 // SVG y of hi, and the axis length
}

// y is the SVG y coordinate of v.
func (a *axis) y(v float64) float64 {
	f := (v - a.lo) / (a.hi - a.lo)
	if a.log {
		f = (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	}
	return a.top + a.len*(1-f)
}

// zero is where bars start: 0, or the bottom of a log axis.
func (a *axis) zero() float64 {
	if a.log || a.lo > 0 {
		return a.lo
	}
	return 0
}

// shows reports whether p can be drawn: it has a figure, and a log axis
// has no place for 0.
func (a *axis) shows(p Point) bool {
	return p.N > 0 && !math.IsNaN(p.Median) && (!a.log || p.Median > 0)
}

// axis chooses the scale for c's figures over an axis of length len
// starting at top, or nil if there is nothing to draw.
func (c Chart) axis(length, top float64) *axis {
	lo, hi := math.Inf(1), math.Inf(-1)
	minPos := math.Inf(1)
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.N == 0 {
				continue
			}
			hi = max(hi, p.Max, p.Median)
			lo = min(lo, p.Min, p.Median)
			for _, v := range []float64{p.Min, p.Median} {
				if v > 0 {
					minPos = min(minPos, v)
				}
			}
		}
	}
	if math.IsInf(hi, -1) || hi <= 0 && lo >= 0 {
		return nil
	}
	a := &axis{top: top, len: length}
	if hi/minPos > maxLinearRatio && lo >= 0 && !c.Linear {
		// Decades, or for durations the units people read them in. The
		// top is a little above the largest figure, not the next decade,
		// which would waste up to 90% of the height.
		a.log = true
		ticks := decades(minPos, hi)
		switch c.Unit {
		case "ns":
			ticks = durationTicks
		case "bytes":
			ticks = powersOf4(minPos, hi)
		}
		a.lo = ticks[0]
		for _, t := range ticks {
			if t <= minPos {
				a.lo = t
			}
		}
		a.hi = math.Pow(10, math.Log10(hi)+0.08)
		for _, t := range ticks {
			if t >= a.lo && t <= a.hi {
				a.ticks = append(a.ticks, t)
			}
		}
		// A top figure well above the last decade (8 over a tick at 1)
		// gets marks at 2 and 5 times it, so that the bars above 1 can
		// be read.
		if last := a.ticks[len(a.ticks)-1]; c.Unit == "" && hi > 2*last {
			for _, m := range []float64{2, 5} {
				if m*last <= a.hi {
					a.ticks = append(a.ticks, m*last)
				}
			}
		}
		if every := 1 + len(a.ticks)/8; every > 1 { // at most about eight labels
			var kept []float64
			for i := 0; i < len(a.ticks); i += every {
				kept = append(kept, a.ticks[i])
			}
			a.ticks = kept
		}
		return a
	}
	step := niceStep(hi-min(0, lo), c.Unit)
	a.lo = math.Floor(min(0, lo)/step) * step
	a.hi = math.Ceil(hi/step) * step
	for t := a.lo; t <= a.hi+step/2; t += step {
		a.ticks = append(a.ticks, t)
	}
	return a
}

// durationTicks are the marks of a logarithmic axis of durations in ns:
// the powers of ten below a second, then a second, ten, a minute, ten
// minutes, an hour and ten hours.
var durationTicks = []float64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 6e10, 6e11, 3.6e12, 3.6e13}

// decades are the powers of ten from below lo to above hi.
func decades(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		out = append(out, math.Pow(10, e))
	}
	return out
}

// powersOf4 are the powers of four from below lo to above hi, marks of a
// logarithmic axis of bytes that read as round binary sizes (1 KiB,
// 4 KiB, 16 KiB...).
func powersOf4(lo, hi float64) []float64 {
	var out []float64
	for e := math.Floor(math.Log(lo) / math.Log(4)); e <= math.Ceil(math.Log(hi)/math.Log(4)); e++ {
		out = append(out, math.Pow(4, e))
	}
	return out
}

// niceStep is a round step that divides span into four to seven parts:
// 1, 2 or 5 times a power of ten, or for bytes a power of two.
func niceStep(span float64, unit string) float64 {
	if unit == "bytes" {
		step := math.Pow(2, math.Floor(math.Log2(span/4)))
		for span/step > 7 {
			step *= 2
		}
		return step
	}
	p := math.Pow(10, math.Floor(math.Log10(span)))
	for _, m := range []float64{0.1, 0.2, 0.5, 1, 2, 5, 10} {
		if span/(m*p) <= 7 {
			return m * p
		}
	}
	return 10 * p
}

// axisLabel drops the zeros that three significant digits leave in a
// round axis value: "1.00 GiB" reads "1 GiB", "2.50" reads "2.5".
func axisLabel(s string) string {
	// Durations: "1m0s" reads "1m", "1h0m0s" reads "1h".
	for _, z := range []string{"0s", "0m"} {
		if t := strings.TrimSuffix(s, z); t != s && (strings.HasSuffix(t, "m") || strings.HasSuffix(t, "h")) {
			s = t
		}
	}
	m := trailingZeros.FindStringSubmatch(s)
	if m == nil {
		return s
	}
	if m[2] != "" {
		return m[1] + "." + m[2] + m[3]
	}
	return m[1] + m[3]
}

// trailingZeros splits a number's whole part, its fraction without
// trailing zeros, and the rest.
var trailingZeros = regexp.MustCompile(`^([-+]?[0-9]+)\.([0-9]*[1-9])?0*([^0-9].*)?$`)

// labelStep is how many groups apart labels are drawn so that no two
// run into one another: many short labels (the seconds of a long step)
// would. Groups are gw wide, a character of a label charW; labels keep a
// character's space between them.
func labelStep(groups []string, gw, charW float64) int {
	for step := 1; ; step++ {
		fits := true
		for i := step; i < len(groups) && fits; i += step {
			need := (float64(len(groups[i-step])+len(groups[i]))/2 + 1) * charW
			fits = need <= float64(step)*gw
		}
		if fits {
			return step
		}
	}
}

// splitLabel breaks a group label into lines of about width characters
// at spaces, at most two.
func splitLabel(s string, width int) []string {
	if len(s) <= width || !strings.Contains(s, " ") {
		return []string{s}
	}
	best := -1
	for i, r := range s {
		if r == ' ' && (best < 0 || abs(i-len(s)/2) < abs(best-len(s)/2)) {
			best = i
		}
	}
	return []string{s[:best], s[best+1:]}
}
