package results

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// run is a result as a workload's: a header, an error, and parts of one
// figure each.
type run struct {
	harness.Header
	Error string
	Parts map[string]float64
}

var schema = Schema[run]{
	Header: func(r *run) *harness.Header { return &r.Header },
	Error:  func(r *run) string { return r.Error },
	Ran:    func(r *run) bool { return r.Parts != nil },
	Run:    func(r *run) []report.Figure { return RunFigures(r.Header, r.Error) },
	Parts: func(r *run) []Part {
		var out []Part
		for _, name := range []string{"a", "b"} {
			if v, ok := r.Parts[name]; ok {
				out = append(out, Part{Name: name, Figures: []report.Figure{{Metric: "time_ns", Unit: "ns", Value: v}}})
			}
		}
		return out
	},
}

func newRun(engine string, repeat int, err string, parts map[string]float64) *run {
	return &run{Header: harness.Header{Engine: engine, Repeat: repeat}, Error: err, Parts: parts}
}

// TestCells checks that an engine's runs merge into their median, that a
// run that stopped before a part marks its engine's figure failed, and
// that an engine that failed is never best.
func TestCells(t *testing.T) {
	set := New(schema, []*run{
		newRun("x", 1, "", map[string]float64{"a": 1, "b": 10}),
		nil, // a gap a caller left
		newRun("y", 1, "", map[string]float64{"a": 5, "b": 20}),
		newRun("x", 2, "", map[string]float64{"a": 3, "b": 30}),
		newRun("y", 2, "b: failed", map[string]float64{"a": 0.5}),
	})
	if len(set.All) != 4 || len(set.Groups) != 2 || set.Groups[1].Err != "run 2: b: failed" {
		t.Fatalf("groups %+v", set.Groups)
	}
	part := func(name string) Of[run, float64] {
		return Of[run, float64]{Get: func(r *run) *float64 {
			if v, ok := r.Parts[name]; ok {
				return &v
			}
			return nil
		}, Error: func(*float64) string { return "" }}
	}
	m := Metric[float64]{Name: "time", Best: report.LowerBest, Get: func(v *float64) report.Cell { return report.Sig3Cell(*v) }}
	a := MetricCells(set, part("a"), m)
	if a[0].Value != 2 || a[0].Failed || !a[0].Ranked || a[1].Ranked {
		t.Errorf("part a: %+v, want x's median 2 ranked, y never best", a)
	}
	if b := MetricCells(set, part("b"), m); !b[1].Failed || b[1].Value != 20 {
		t.Errorf("part b of y, whose second run stopped before it: %+v, want 20 marked failed", b[1])
	}
	texts := set.Texts(func(r *run) string { return r.Engine + "!" })
	if texts[0].Text != "x!" {
		t.Errorf("texts %+v", texts)
	}
	sums := set.Summaries([]string{"a", "b"})
	if len(sums) != 2 || sums[1].Runs != 2 || len(sums[1].Parts) != 2 || sums[1].Parts[1].Figures[0].N != 1 {
		t.Errorf("summaries %+v, want y's part b over its one run that has it", sums)
	}
	if New(schema, set.All[:2]).Summaries([]string{"a"}) != nil {
		t.Error("a summary of engines that ran once")
	}
}

// TestStacked checks that a stacked bar's parts are the medians of the
// engine's runs and its height the median of their sums.
func TestStacked(t *testing.T) {
	set := New(schema, []*run{
		newRun("x", 1, "", map[string]float64{"a": 1, "b": 10}),
		newRun("x", 2, "", map[string]float64{"a": 3, "b": 30}),
		newRun("x", 3, "", map[string]float64{"a": 2, "b": 20}),
	})
	part := func(name string) func(*run) (float64, bool) {
		return func(r *run) (float64, bool) { v, ok := r.Parts[name]; return v, ok }
	}
	c := set.Stacked(report.Chart{Title: "t"}, "g", []func(*run) (float64, bool){part("a"), part("b")})
	p := c.Series[0].Points[0]
	if p.Median != 22 || p.N != 3 || len(p.Stack) != 2 || p.Stack[0] != 2 || p.Stack[1] != 20 {
		t.Errorf("point %+v, want parts 2 and 20 of a bar of 22 over 3 runs", p)
	}
}

// TestEnded checks that an engine's column says how the benchmark ended
// its runs only when it ended every failed run the same way.
func TestEnded(t *testing.T) {
	stopped := func(engine string, repeat int) *run {
		r := newRun(engine, repeat, "stopped at the -max-time limit of 5s", nil)
		r.Outcome = harness.OutcomeStopped
		return r
	}
	oom := newRun("oom", 1, "out of memory in step \"Write\" (limit 4 GiB)", nil) // before Outcome was recorded
	set := New(schema, []*run{
		stopped("s", 1), newRun("s", 2, "", nil),
		stopped("mixed", 1), newRun("mixed", 2, "wrong values", nil),
		oom,
		newRun("bad", 1, "wrong values", nil),
		newRun("ok", 1, "", nil),
	})
	var got []string
	for _, e := range set.Engines() {
		got = append(got, e.Name+"="+e.Ended)
	}
	if want := "s=stopped mixed= oom=out of memory bad= ok="; strings.Join(got, " ") != want {
		t.Errorf("engines' Ended %q, want %q", strings.Join(got, " "), want)
	}
}
