package main

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

// TestRunReuseIterator: -reuse-iterator reaches the child, whose queries
// verify every point, and the report says it was on; the engine's
// metrics are in each step.
func TestRunReuseIterator(t *testing.T) {
	a, _ := pureGoEngines(t)
	args := append([]string{"-engine", a, "-path", t.TempDir(), "-format", "json", "-reuse-iterator"}, tinyRun...)
	stdout, _ := runOK(t, args...)
	rep := decodeReport(t, stdout)
	if len(rep.Results) != 1 {
		t.Fatalf("results for %v, want [%s]", engineNames(rep), a)
	}
	res := rep.Results[0]
	checkVerified(t, res)
	if !res.Config.ReuseIterator {
		t.Errorf("config %+v does not record -reuse-iterator", res.Config)
	}
	if a == "pebble" {
		for _, st := range res.Steps {
			if _, ok := st.EngineMetrics[engine.MetricCompactBytes]; !ok {
				t.Errorf("%s: engine metrics %v lack %s", st.Name, st.EngineMetrics, engine.MetricCompactBytes)
			}
		}
	}
	if head, _, _ := strings.Cut(rep.Page().Text(), "\n"); !strings.Contains(head, "reuse one iterator") {
		t.Errorf("report head %q does not say queries reused an iterator", head)
	}
}
