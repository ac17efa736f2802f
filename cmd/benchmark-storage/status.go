package main

import (
	"fmt"
	"time"

	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// partialResult is the child's last result so far, decoded as w's, or
// nil if it sent none.
func partialResult(w *suite.Suite, l *supervise.StatusLog) *suite.Result {
	res, err := w.DecodeResult(l.Partial())
	if err != nil {
		return nil
	}
	return res
}

// where says how far the child got: `step "Write 100M values" after 18.5M
// of 100M points (1.2M points/s so far)`, or "before its first step".
// Without rate, no rate: for a child that reports its stopped step itself
// (suite.Info.Stops), whose rate, of engine time, is the one to read,
// rather than a second one of wall time up to this message. The count is
// the step's own: the child's last status is sent as the step ends.
func where(l *supervise.StatusLog, rate bool) string {
	st, since := l.Last()
	if st.Step == "" {
		return "before its first step"
	}
	s := fmt.Sprintf("in step %q", st.Step)
	if st.Total > 0 {
		s += fmt.Sprintf(" after %s of %s points", harness.Count(st.Done), harness.Count(st.Total))
		if secs := time.Since(since).Seconds(); secs > 0 && st.Done > 0 && rate {
			s += fmt.Sprintf(" (%s points/s so far)", approx(float64(st.Done)/secs))
		}
	}
	return s
}
