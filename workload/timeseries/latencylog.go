package timeseries

import (
	"fmt"
	"io"

	"github.com/tsbench/storage/internal/measure"
)

// WriteLatencyLog writes every step's whole latency distribution as an
// HdrHistogram log (report.LatencyLogger), one interval histogram per
// step of each run, tagged ENGINE/STEP (ENGINE#RUN/STEP when an engine
// ran more than once). A step's times are laid end to end from the run's
// start by the steps' wall times: the log orders them, the results time
// them.
func (r Report) WriteLatencyLog(w io.Writer) error {
	var entries []measure.LogEntry
	for _, res := range r.Results {
		engine := res.Engine
		if res.Repeat > 1 || r.repeated() {
			engine = fmt.Sprintf("%s#%d", res.Engine, max(res.Repeat, 1))
		}
		at := r.Env.Start
		for _, st := range res.Steps {
			end := at.Add(st.Wall)
			if len(st.Distribution) > 0 {
				entries = append(entries, measure.LogEntry{Tag: engine + "/" + st.Name, Start: at, End: end, Encoded: st.Distribution})
			}
			at = end
		}
	}
	comment := fmt.Sprintf("benchmark-storage run %s: the latency of every step (write: per batch; query: per series scan; delete: per series DeleteRange), in ns", r.RunID)
	return measure.WriteLatencyLog(w, r.Env.Start, comment, entries)
}

// repeated reports whether an engine of the report ran more than once.
func (r Report) repeated() bool {
	for _, res := range r.Results {
		if res.Repeat > 1 {
			return true
		}
	}
	return false
}
