package mixed

import (
	"fmt"
	"io"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
)

// WriteLatencyLog writes every operation kind's whole latency
// distribution as an HdrHistogram log (report.LatencyLogger), one
// interval histogram per kind of each run, tagged ENGINE/KIND
// (ENGINE#RUN/KIND when an engine ran more than once), the warm-up's
// ENGINE/warmup/KIND, from the run's start: the warm-up, then the run.
func (r Report) WriteLatencyLog(w io.Writer) error {
	comment := fmt.Sprintf("benchmark-storage run %s: the latency of every operation kind of the mixed workload (write: per batch; queries: per query), in ns", r.RunID)
	return results.WriteLatencyLog(w, results.Report[Result](r), func(res *Result) *harness.Header { return &res.Header }, comment,
		func(res *Result, at time.Time) []measure.LogEntry {
			var entries []measure.LogEntry
			if res.Warmup != nil {
				end := at.Add(res.Warmup.Elapsed)
				for _, op := range res.Warmup.Operations {
					entries = append(entries, measure.LogEntry{Tag: "warmup/" + op.Kind, Start: at, End: end, Encoded: op.Distribution})
				}
				at = end
			}
			for _, op := range res.Operations {
				entries = append(entries, measure.LogEntry{Tag: op.Kind, Start: at, End: at.Add(res.Elapsed), Encoded: op.Distribution})
			}
			return entries
		})
}
