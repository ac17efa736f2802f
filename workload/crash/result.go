package crash

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// Result is one engine's crash check.
type Result struct {
	harness.Header
	// Error is why the check could not run to the end ("" if it did);
	// what it found is in Crash either way.
	Error  string `json:"error,omitempty"`
	Config Config `json:"config"`
	Crash  *Stats `json:"crash,omitempty"`
}

// Stats adds up the rounds of a check. Durations are in nanoseconds in
// JSON.
type Stats struct {
	// Kills is how many times the writer was killed, or the power cut
	// under it.
	Kills int `json:"kills"`
	// AcknowledgedBatches is how many commits returned, over all rounds.
	AcknowledgedBatches int64 `json:"acknowledged_batches"`
	// LostBatches counts acknowledged batches not wholly present after a
	// reopen (a batch below the highest one found counts as
	// acknowledged). Each batch counts once, unless a later writer wrote
	// it again and it was lost again.
	LostBatches int64 `json:"lost_batches"`
	// LossAllowed says the engine did not promise to keep acknowledged
	// batches through the fault: a power cut under sync none. Lost
	// batches are then counted but do not fail the engine; torn ones do.
	LossAllowed bool `json:"loss_allowed,omitempty"`
	// TornBatches counts batches found partly present, or with a wrong
	// value, after a reopen. Each batch counts once.
	TornBatches int64 `json:"torn_batches"`
	// ReopenErrors counts reopens that failed: Open, the engine's
	// integrity check, reading every entry, or Close.
	ReopenErrors int `json:"reopen_errors"`
	// RecoveryP50 and RecoveryMax are the median and the longest time
	// Open took after a kill or cut, over the reopens that succeeded.
	RecoveryP50 time.Duration `json:"recovery_p50_ns"`
	RecoveryMax time.Duration `json:"recovery_max_ns"`
	// IntegrityCheck is true when the engine's own check (engine.Check)
	// ran after every reopen, false when the engine has none.
	IntegrityCheck bool `json:"integrity_check"`
	// FirstProblem describes the first tear or reopen error, or loss
	// unless LossAllowed.
	FirstProblem string `json:"first_problem,omitempty"`
	// WriterMemory is the writer processes' memory by kind: each kind's
	// highest peak over the rounds, as the writers sampled and reported
	// them (Writer.Memory, Round.Memory); nil when none reported any.
	WriterMemory *measure.MemoryPeaks `json:"writer_memory,omitempty"`
}

// Failure says what the check found wrong, "" if nothing.
func (s *Stats) Failure() string {
	if s == nil {
		return ""
	}
	lost := s.LostBatches
	if s.LossAllowed {
		lost = 0
	}
	if lost+s.TornBatches+int64(s.ReopenErrors) == 0 {
		return ""
	}
	return fmt.Sprintf("%d lost, %d torn batches, %d reopen errors in %d rounds; first: %s",
		s.LostBatches, s.TornBatches, s.ReopenErrors, s.Kills, s.FirstProblem)
}

// Round is what one kill, or power cut, and reopen found.
type Round struct {
	// Acks is how many acknowledgements the writer sent before it died
	// (before the power was cut), Acked one more than the highest batch
	// they named (0 for none), and From the lowest: the writer goes on
	// from the highest batch it finds, so batches from From on that an
	// earlier round lost were written again.
	Acks  int64
	Acked uint64
	From  uint64
	// Scan is what the reopened store held; nil when ReopenErr is set.
	Scan *Scan
	// Recovery is how long Open took.
	Recovery time.Duration
	// Checked says the engine's own integrity check ran and passed.
	Checked bool
	// ReopenErr is why the reopen failed.
	ReopenErr error
	// Memory is the writer's memory peaks as it last reported them
	// before it died (Writer.Memory); nil if it reported none.
	Memory *measure.MemoryPeaks
}

// Tally adds rounds up into Stats.
type Tally struct {
	Stats
	acked      uint64 // one more than the highest batch acknowledged so far
	lost, torn map[uint64]bool
	recoveries []time.Duration
	checks     int
}

// Add counts one round.
func (t *Tally) Add(r Round) {
	if t.lost == nil {
		t.lost, t.torn = map[uint64]bool{}, map[uint64]bool{}
	}
	t.Kills++
	t.AcknowledgedBatches += r.Acks
	t.addMemory(r.Memory)
	if r.Acks > 0 && r.From < t.acked {
		// Written again: a loss of them now is a loss anew.
		for b := r.From; b < t.acked; b++ {
			delete(t.lost, b)
			delete(t.torn, b)
		}
		t.acked = r.From
	}
	t.acked = max(t.acked, r.Acked)
	if r.ReopenErr != nil {
		t.ReopenErrors++
		t.problem(fmt.Sprintf("round %d: reopen: %v", t.Kills, r.ReopenErr))
		return
	}
	t.recoveries = append(t.recoveries, r.Recovery)
	if r.Checked {
		t.checks++
	}
	s := r.Scan
	if s.Problem != "" {
		t.problem(fmt.Sprintf("round %d: %s", t.Kills, s.Problem))
	}
	bad := slices.Sorted(func(yield func(uint64) bool) {
		for b := range s.Incomplete {
			if !yield(b) {
				return
			}
		}
	})
	for b := s.Top; b < t.acked; b++ {
		bad = append(bad, b) // acknowledged, then missing from the end
	}
	for _, b := range bad {
		n := s.Incomplete[b]
		if n > 0 && !t.torn[b] {
			t.torn[b] = true
			t.TornBatches++
			t.problem(fmt.Sprintf("round %d: batch %d torn: %d of its entries intact", t.Kills, b, n))
		}
		if !t.lost[b] {
			t.lost[b] = true
			t.LostBatches++
			if !t.LossAllowed {
				t.problem(fmt.Sprintf("round %d: acknowledged batch %d lost (highest acknowledged %d)", t.Kills, b, int64(max(t.acked, s.Top))-1))
			}
		}
	}
}

// addMemory keeps each kind's highest peak of the writers'.
func (t *Tally) addMemory(m *measure.MemoryPeaks) {
	if m == nil {
		return
	}
	if t.WriterMemory == nil {
		t.WriterMemory = &measure.MemoryPeaks{}
	}
	w := t.WriterMemory
	w.Private, w.File, w.Shared, w.Go = max(w.Private, m.Private), max(w.File, m.File), max(w.Shared, m.Shared), max(w.Go, m.Go)
	w.Samples += m.Samples
}

// problem keeps the first problem found.
func (t *Tally) problem(p string) {
	if t.FirstProblem == "" {
		t.FirstProblem = p
	}
}

// Finish computes the recovery times and returns the stats.
func (t *Tally) Finish() *Stats {
	s := t.Stats
	if n := len(t.recoveries); n > 0 {
		r := slices.Sorted(slices.Values(t.recoveries))
		s.RecoveryP50, s.RecoveryMax = r[(n-1)/2], r[n-1]
	}
	s.IntegrityCheck = t.checks > 0 && t.checks == len(t.recoveries)
	if m := t.WriterMemory; m != nil {
		c := *m // the tally's own goes on with later rounds
		s.WriterMemory = &c
	}
	return &s
}

// String is a one-line summary, for progress lines.
func (r Round) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d acknowledged", r.Acks)
	switch {
	case r.ReopenErr != nil:
		fmt.Fprintf(&b, ", reopen failed: %v", r.ReopenErr)
	default:
		fmt.Fprintf(&b, ", recovered in %v, %d batches found, %d incomplete", r.Recovery.Round(time.Microsecond), r.Scan.Top, len(r.Scan.Incomplete))
	}
	return b.String()
}
