package harness

import "time"

// Progress is told how each part of a workload (a step, a benchmark)
// advances. A workload calls Begin and End from its own goroutine and
// Update from a ticker goroutine between them, a few times a second, so
// that drawing progress never runs inside timed work.
type Progress interface {
	// Begin starts a part: its label (as in the report) and how many
	// points or operations it will handle; 0 when that is not known in
	// advance (a part that runs for a duration).
	Begin(label string, total int64)
	// Update reports how many are done so far.
	Update(done int64)
	// End finishes the part.
	End()
}

// UnitSeconds is the unit of a part that counts the seconds of its
// duration, not points: its progress shows no rate.
const UnitSeconds = "seconds"

// InSeconds tells p, if it takes a unit (a SetUnit method), that the
// parts it begins from now on count the seconds of their duration.
func InSeconds(p Progress) {
	if u, ok := p.(interface{ SetUnit(string) }); ok {
		u.SetUnit(UnitSeconds)
	}
}

// ProgressPeriod is how often a span's sampler reports progress and
// calls its watch (Watch): a few times a second.
const ProgressPeriod = 200 * time.Millisecond
