package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/tsbench/storage/workload/harness"
)

// statusFD is where a child reports, one JSON line at a time, which step
// it is in and how far it got (childStatus), so that the parent can say
// how far an engine got when it is stopped or killed: by -max-time, or
// by the kernel's OOM killer under -memory. Progress lines are for
// people; this is for the parent.
const statusFD = 5

// childStatus is one line of statusFD: the step that runs, the points
// done of its total (0 when it counts none), and after each finished step
// the result so far, which the parent reports if the child never sends
// its whole result (stopped by -max-time, killed for memory, crashed).
type childStatus struct {
	Step    string          `json:"step"`
	Done    int64           `json:"done"`
	Total   int64           `json:"total"`
	Partial json.RawMessage `json:"partial,omitempty"`
}

// maxStatusLine bounds a status line: a partial result with a long
// step's intervals takes a few MiB.
const maxStatusLine = 256 << 20

// statusOut is a child's statusFD.
func statusOut() io.Writer { return os.NewFile(statusFD, "status") }

// lastStatus keeps the last status line a child sent, and when its step
// began as the parent saw it.
type lastStatus struct {
	mu      sync.Mutex
	st      childStatus
	since   time.Time
	partial json.RawMessage // the last result so far
}

// read records every line of r until it ends.
func (l *lastStatus) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxStatusLine)
	for sc.Scan() {
		var st childStatus
		if json.Unmarshal(sc.Bytes(), &st) != nil {
			continue
		}
		l.mu.Lock()
		if st.Partial != nil {
			// Sent between steps: where the child is stays as the last
			// step said.
			l.partial = st.Partial
			l.mu.Unlock()
			continue
		}
		if st.Step != l.st.Step {
			l.since = time.Now()
		}
		l.st = st
		l.mu.Unlock()
	}
}

// partialResult is the child's last result so far, decoded, or nil if
// it sent none.
func partialResult[R any](l *lastStatus) *R {
	l.mu.Lock()
	defer l.mu.Unlock()
	res, err := decodeResult[R](l.partial)
	if err != nil {
		return nil
	}
	return res
}

// where says how far the child got: `step "Write 100M values" after 18.5M
// of 100M points (1.2M points/s so far)`, or "before its first step".
func (l *lastStatus) where() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := l.st
	if st.Step == "" {
		return "before its first step"
	}
	s := fmt.Sprintf("in step %q", st.Step)
	if st.Total > 0 {
		s += fmt.Sprintf(" after %s of %s points", harness.Count(st.Done), harness.Count(st.Total))
		if secs := time.Since(l.since).Seconds(); secs > 0 && st.Done > 0 {
			s += fmt.Sprintf(" (%s points/s so far)", approx(float64(st.Done)/secs))
		}
	}
	return s
}
