package supervise

import (
	"bufio"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// Status is one line a child writes on StatusFD, as JSON: the step that
// runs, the points done of its total (0 when it counts none), and after
// each finished step the result so far, which the parent reports if the
// child never sends its whole result (stopped, killed for memory,
// crashed). Progress lines are for people; this is for the parent.
type Status struct {
	Step    string          `json:"step"`
	Done    int64           `json:"done"`
	Total   int64           `json:"total"`
	Partial json.RawMessage `json:"partial,omitempty"`
}

// maxStatusLine bounds a status line: a partial result with a long
// step's intervals takes a few MiB.
const maxStatusLine = 256 << 20

// StatusLog keeps the last status line a child sent, when its step began
// as the parent saw it, and the last result so far.
type StatusLog struct {
	mu      sync.Mutex
	last    Status
	since   time.Time
	partial json.RawMessage
}

// Read records every line of r until it ends; a line that is not a
// Status (cut short by the child's death) is passed over.
func (l *StatusLog) Read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, maxStatusLine)
	for sc.Scan() {
		var st Status
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
		if st.Step != l.last.Step {
			l.since = time.Now()
		}
		l.last = st
		l.mu.Unlock()
	}
}

// Last is the last status line without a result, and when its step
// began; the zero Status before the first.
func (l *StatusLog) Last() (Status, time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last, l.since
}

// Partial is the last result so far the child sent, nil if none.
func (l *StatusLog) Partial() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.partial
}
