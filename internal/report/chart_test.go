package report

import (
	"strings"
	"testing"
	"time"
)

func TestAxisLabel(t *testing.T) {
	for in, want := range map[string]string{"1.00 GiB": "1 GiB", "1.50 GiB": "1.5 GiB", "2.50": "2.5", "12.0k": "12k",
		"1m0s": "1m", "1h0m0s": "1h", "10s": "10s", "100ms": "100ms", "1.5µs": "1.5µs", "0": "0", "512 MiB": "512 MiB", "+0.200%": "+0.2%", "-20.0%": "-20%"} {
		if got := axisLabel(in); got != want {
			t.Errorf("axisLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestColorsDistinct checks that twenty engines, every Go engine and the
// JVM systems side by side, get a color each.
func TestColorsDistinct(t *testing.T) {
	seen := map[string]int{}
	for i := range 20 {
		if j, ok := seen[Color(i)]; ok {
			t.Errorf("engines %d and %d share %s", j, i, Color(i))
		}
		seen[Color(i)] = i
	}
}

// TestLinearChart checks that a chart of changes keeps a linear axis
// however far they spread, and makes room below zero for a fall.
func TestLinearChart(t *testing.T) {
	pt := func(v float64) Point { return Point{Stats: Summarize([]float64{v})} }
	c := Chart{Groups: []string{"a", "b", "c"}, Format: percent, Linear: true,
		Series: []ChartSeries{{Name: "x", Points: []Point{pt(0.1), pt(200), pt(-20)}}}}
	ax := c.axis(200, 10)
	if ax.log || ax.lo > -20 || ax.hi < 200 {
		t.Errorf("axis %+v, want linear from below -20 to above 200", ax)
	}
	c.Series[0].Points[2] = pt(0.5)
	if c.axis(200, 10).log {
		t.Error("a chart of changes switched to a log axis")
	}
	c.Linear = false
	if !c.axis(200, 10).log {
		t.Error("without Linear, figures spread over 2000x should get a log axis")
	}
}

// TestLogAxisMarksAboveLastDecade checks that a log axis whose top figure
// is far above its last decade (write amplification 0.1 to 8) marks
// values above that decade.
func TestLogAxisMarksAboveLastDecade(t *testing.T) {
	pt := func(v float64) Point { return Point{Stats: Summarize([]float64{v})} }
	c := Chart{Groups: []string{"a", "b"}, Format: Sig3, Series: []ChartSeries{{Name: "x", Points: []Point{pt(0.1), pt(8)}}}}
	ax := c.axis(200, 10)
	if !ax.log || ax.ticks[len(ax.ticks)-1] <= 1 {
		t.Errorf("ticks %v on a log axis up to %v, want one above 1", ax.ticks, ax.hi)
	}
}

// TestStackedBar checks that a stacked bar draws a rectangle per part
// that has some, named in its tooltip, their heights adding up to the
// bar's.
func TestStackedBar(t *testing.T) {
	p := Point{Stats: Summarize([]float64{100}), Stack: []float64{60, 0, 30, 10}}
	c := Chart{Groups: []string{"write"}, Format: Sig3, Linear: true, Stack: []string{"engine", "go", "files", "shared"},
		Series: []ChartSeries{{Name: "x", Points: []Point{p}}}}
	svg := c.svg(chartW, chartH, chartFont)
	if n := strings.Count(svg, "<rect"); n != 3 {
		t.Errorf("%d rectangles for 3 parts with figures:\n%s", n, svg)
	}
	for _, want := range []string{"x, write: engine 60.0 of 100", "x, write: files 30.0 of 100", `fill-opacity="0.36"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the stacked bar lacks %q:\n%s", want, svg)
		}
	}
}

// TestLabelStepKeepsLabelsApart checks the over-time panels' time labels,
// which ran into one another ("1m24s1m52s2m20s") when the step was
// reckoned from too narrow a character, and that categories that fit are
// all labelled.
func TestLabelStepKeepsLabelsApart(t *testing.T) {
	var times []string
	for i := range 240 {
		times = append(times, Duration(time.Duration(i)*time.Second))
	}
	gw := float64(panelW-marginL-marginR) / float64(len(times))
	charW := panelFont * charEm
	step := labelStep(times, gw, charW)
	for i := step; i < len(times); i += step {
		a, b := float64(i-step)*gw, float64(i)*gw // centres, less the same half group
		if gap := b - a - float64(len(times[i-step])+len(times[i]))/2*charW; gap < charW {
			t.Fatalf("step %d: labels %q and %q are %.1f units apart", step, times[i-step], times[i], gap)
		}
	}
	if step > 2*len(times)/6 {
		t.Errorf("step %d leaves fewer than 3 labels", step)
	}
	steps := []string{"fillseq", "fillsync", "readrandom", "readseq", "readrandom#2", "readCrc"}
	if s := labelStep(steps, float64(chartW-marginL-marginR)/9, chartFont*charEm); s != 1 {
		t.Errorf("benchmark names 86 units apart: every %d-th labelled, want all", s)
	}
}
