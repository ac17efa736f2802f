package timeseries

import (
	"github.com/tsbench/storage/engine"
)

// readMetrics reads the engine's metrics for step name; nil, with a
// warning once, if it cannot.
func (r *runner) readMetrics(name string) engine.Metrics {
	m, err := engine.ReadMetrics(r.db)
	if err != nil {
		r.warnings.Warn("metrics", "%s: no engine metrics: %v", name, err)
		return nil
	}
	return m
}
