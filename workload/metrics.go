package workload

import (
	"maps"
	"slices"

	"github.com/tsbench/storage/engine"
)

// MetricNamesIn are the names of the metrics any of ms holds: those of
// engine.MetricNames in its order, then any other in name order.
func MetricNamesIn(ms ...engine.Metrics) []string {
	seen := map[string]bool{}
	for _, m := range ms {
		for name := range m {
			seen[name] = true
		}
	}
	var out []string
	for _, name := range engine.MetricNames() {
		if seen[name] {
			out = append(out, name)
			delete(seen, name)
		}
	}
	return append(out, slices.Sorted(maps.Keys(seen))...)
}

// readMetrics reads the engine's metrics for step name; nil, with a
// warning once, if it cannot.
func (r *runner) readMetrics(name string) engine.Metrics {
	m, err := engine.ReadMetrics(r.db)
	if err != nil {
		r.warn("metrics", "%s: no engine metrics: %v", name, err)
		return nil
	}
	return m
}
