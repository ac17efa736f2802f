package results

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// WriteLatencyLog writes the whole latency distributions of every result
// of r as an HdrHistogram log (measure.WriteLatencyLog), comment first:
// parts lists a result's distributions from start, the run's start, each
// tagged by its part alone ("write", "warmup/last"), which the log tags
// ENGINE/PART, or ENGINE#RUN/PART when an engine ran more than once. A
// part without a distribution is left out.
func WriteLatencyLog[R any](w io.Writer, r Report[R], header func(*R) *harness.Header, comment string, parts func(res *R, start time.Time) []measure.LogEntry) error {
	repeated := slices.ContainsFunc(r.Results, func(res *R) bool { return header(res).Repeat > 1 })
	var entries []measure.LogEntry
	for _, res := range r.Results {
		h := header(res)
		engine := h.Engine
		if repeated {
			engine = fmt.Sprintf("%s#%d", h.Engine, max(h.Repeat, 1))
		}
		for _, e := range parts(res, r.Env.Start) {
			if len(e.Encoded) > 0 {
				e.Tag = engine + "/" + e.Tag
				entries = append(entries, e)
			}
		}
	}
	return measure.WriteLatencyLog(w, r.Env.Start, comment, entries)
}
