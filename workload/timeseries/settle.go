package timeseries

import (
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
)

const (
	// busyPoll is how often an engine.Backgrounder is asked if it is busy.
	busyPoll = 100 * time.Millisecond
	// diskPoll is how often the directory is measured for engines that
	// cannot say; it is quiet after quietSamples unchanged measurements.
	diskPoll     = 500 * time.Millisecond
	quietSamples = 2
)

// settle waits until the engine's background work after a step has
// stopped, and returns how long it went on: until an engine.Backgrounder
// first reports idle or, for other engines, until the directory last
// changed (to within diskPoll). timedOut reports that it gave up after
// Config.SettleTimeout.
func (r *runner) settle() (d time.Duration, timedOut bool) {
	start := time.Now()
	deadline := start.Add(r.cfg.settleTimeout())
	if b, ok := r.db.(engine.Backgrounder); ok {
		for {
			busy, err := b.Busy()
			if err != nil {
				r.warnings.Warn("busy", "engine cannot tell whether it is busy (%v); watching its directory instead", err)
				break
			}
			if !busy {
				return time.Since(start), false
			}
			if time.Now().After(deadline) {
				return time.Since(start), true
			}
			time.Sleep(busyPoll)
		}
	}
	prev, _ := diskusage.Measure(r.dir)
	changed, quiet := start, 0
	for quiet < quietSamples {
		if time.Now().After(deadline) {
			return time.Since(start), true
		}
		time.Sleep(diskPoll)
		cur, _ := diskusage.Measure(r.dir)
		if cur == prev {
			quiet++
			continue
		}
		prev, changed, quiet = cur, time.Now(), 0
	}
	return changed.Sub(start), false
}
