package steady

import (
	"fmt"
	"io"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
)

// WriteLatencyLog writes the whole latency distribution of each kind of
// operation as an HdrHistogram log (report.LatencyLogger), one interval
// histogram per kind of each run, tagged ENGINE/KIND (ENGINE#RUN/KIND
// when an engine ran more than once): write (from the intended start),
// commit, then each query kind; the warm-up's ENGINE/warmup/KIND, from
// the run's start. A rate search's log holds the run it reports.
func (r Report) WriteLatencyLog(w io.Writer) error {
	comment := fmt.Sprintf("benchmark-storage run %s: the latency of every operation kind of the steady-state workload (write: per batch from its intended start; commit: the engine's calls; queries: per query), in ns", r.RunID)
	return results.WriteLatencyLog(w, results.Report[Result](r), func(res *Result) *harness.Header { return &res.Header }, comment,
		func(res *Result, at time.Time) []measure.LogEntry {
			var entries []measure.LogEntry
			part := func(prefix string, start, end time.Time, write, commit measure.Detail, queries []Query) {
				entries = append(entries, measure.LogEntry{Tag: prefix + "write", Start: start, End: end, Encoded: write.Distribution},
					measure.LogEntry{Tag: prefix + "commit", Start: start, End: end, Encoded: commit.Distribution})
				for _, q := range queries {
					entries = append(entries, measure.LogEntry{Tag: prefix + q.Kind, Start: start, End: end, Encoded: q.Distribution})
				}
			}
			end := at.Add(res.Elapsed) // of the whole run
			if w := res.Warmup; w != nil {
				part("warmup/", at, at.Add(w.Elapsed), w.WriteDetail, w.CommitDetail, w.Queries)
				at = at.Add(w.Elapsed)
			}
			part("", at, end, res.WriteDetail, res.CommitDetail, res.Queries)
			return entries
		})
}
