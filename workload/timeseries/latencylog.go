package timeseries

import (
	"fmt"
	"io"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
)

// WriteLatencyLog writes every step's whole latency distribution as an
// HdrHistogram log (report.LatencyLogger), one interval histogram per
// step of each run, tagged ENGINE/STEP (ENGINE#RUN/STEP when an engine
// ran more than once). A step's times are laid end to end from the run's
// start by the steps' wall times: the log orders them, the results time
// them.
func (r Report) WriteLatencyLog(w io.Writer) error {
	comment := fmt.Sprintf("benchmark-storage run %s: the latency of every step (write: per batch; query: per series scan; delete: per series DeleteRange), in ns", r.RunID)
	return results.WriteLatencyLog(w, results.Report[Result](r), func(res *Result) *harness.Header { return &res.Header }, comment,
		func(res *Result, at time.Time) []measure.LogEntry {
			var entries []measure.LogEntry
			for _, st := range res.Steps {
				end := at.Add(st.Wall)
				entries = append(entries, measure.LogEntry{Tag: st.Name, Start: at, End: end, Encoded: st.Distribution})
				at = end
			}
			return entries
		})
}
