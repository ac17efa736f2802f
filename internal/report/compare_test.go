package report

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	side := func(name string, scale float64, runs int) Side {
		s := Side{Name: name, RunID: name + "-id"}
		for _, e := range []string{"pebble", "bbolt"} {
			for i, part := range []string{"write", "query"} {
				var vs []float64
				for k := range runs {
					vs = append(vs, scale*float64(1e6*(i+1)+1e4*k))
				}
				s.Samples = append(s.Samples, Samples{Engine: e, Part: part, Label: strings.ToUpper(part), Metric: "time_ns", Unit: "ns", Values: vs})
			}
		}
		// Only the old run has this figure.
		if scale == 1 {
			s.Samples = append(s.Samples, Samples{Engine: "bbolt", Part: "write", Label: "WRITE", Metric: "latency.p99_ns", Unit: "ns", Values: []float64{5}})
		}
		return s
	}
	metrics := []CompareMetric{{"time_ns", "Time"}, {"latency.p99_ns", "p99"}, {"nosuch", "None"}}
	p := Compare(side("old.json", 1, 5), side("new.json", 2, 5), metrics, 0.05, false)
	text := p.Text()
	for _, want := range []string{"pebble", "bbolt", "WRITE", "+100.0%", "yes (p=0.008 n=5+5)", "old.json", "new.json", "p99 (latency.p99_ns)"} {
		if !strings.Contains(text, want) {
			t.Errorf("comparison lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "None") {
		t.Errorf("a table for a metric neither side has:\n%s", text)
	}
	// Three runs a side cannot show a difference at 0.05; one cannot be
	// tested.
	if text := Compare(side("a", 1, 3), side("b", 2, 3), metrics[:1], 0.05, false).Text(); !strings.Contains(text, "no (p=0.100 n=3+3)") {
		t.Errorf("3+3 runs:\n%s", text)
	}
	if text := Compare(side("a", 1, 1), side("b", 2, 1), metrics[:1], 0.05, false).Text(); !strings.Contains(text, "untested (n=1+1; need 3+3)") {
		t.Errorf("1+1 runs:\n%s", text)
	}
	h := p.HTML()
	if !strings.Contains(h, "<svg") || !strings.Contains(h, "Change in Time") {
		t.Error("the HTML comparison has no chart")
	}
}
