package steady

import (
	"fmt"
	"math"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/points"
)

// The ttl method (MethodTTL) leaves retention to the engine: it is opened
// with an expiry (engine.Options.Expiry) and drops every point once that
// much wall time has passed since its write. The run's retention window
// is data time, which runs Speedup times faster than wall time, so the
// expiry is the window in wall time on the schedule: Retention/Speedup,
// rounded up to the whole seconds engines count in. On schedule, a point
// then expires as the data's front passes it by Retention; a writer
// behind the schedule writes later data at the same wall time, and the
// engine keeps less than the window of data time.
//
// The checks follow what the engines promise: an entry stays readable at
// least its expiry after its write, and may be read after that until the
// engine drops it (RocksDB only when a compaction reaches its file). A
// batch is written no earlier than its slot on the schedule, so every
// batch whose slot is less than the expiry ago must be read whole (kept);
// a point older than that may be there or not, and neither counts
// against the engine. No read is counted expired, and nothing is
// deleted: the window's cutoff still moves on, for the queries' ranges.

// Expiry is the expiry the ttl method opens its engine with: the
// retention window in wall time on the schedule, Retention/Speedup,
// rounded up to whole seconds. Defaults are filled in first.
func (c Config) Expiry() time.Duration {
	c = c.WithDefaults()
	secs := math.Ceil(c.Retention.Seconds()/c.Speedup - 1e-9)
	return time.Duration(secs) * time.Second
}

// checkExpiry refuses db for the ttl method unless it was opened with
// cfg's expiry: one line naming the fix, or the methods that work on an
// engine without expiry.
func checkExpiry(db engine.Engine, cfg Config) error {
	got, err := engine.ExpiryOf(db)
	switch want := cfg.Expiry(); {
	case err != nil:
		return fmt.Errorf("%w: -retention-method ttl: %w; use -retention-method delete, bucket or shards", ErrInvalidConfig, err)
	case got != want:
		return fmt.Errorf("%w: -retention-method ttl keeps -retention %v at -speedup %g, so the engine expires points after %v: open it with engine.Options.Expiry %v, not %v",
			ErrInvalidConfig, cfg.Retention, cfg.Speedup, want, want, got)
	}
	return nil
}

// kept is the first batch that the engine's expiry cannot have dropped
// by now: every batch from it on has its slot less than the expiry ago.
// Without MethodTTL, 0.
func (r *runner) kept(now time.Time) int64 {
	since := now.Sub(r.start) - r.expiry
	if r.expiry == 0 || since < 0 {
		return 0
	}
	// A tick's margin for the float arithmetic of the slots' times.
	return min(r.batches, int64((since+tick).Seconds()*r.cfg.Rate/float64(r.cfg.Batch))+1)
}

// gone is the data time before which a read may return no point, given
// done, the cutoff retention has deleted to: done, but none with
// MethodTTL, whose engine drops points some time after they expire.
func (r *runner) gone(done uint64) uint64 {
	if r.expiry > 0 {
		return points.Epoch
	}
	return done
}

// present is the data time from which a read that ends now must return
// every committed point: the cutoff retention is deleting to, or with
// MethodTTL the first round wholly in batches it keeps.
func (r *runner) present() uint64 {
	if r.expiry == 0 {
		return r.deleting.Load()
	}
	first := r.kept(time.Now()) * r.m.batch
	return r.m.ts((first + r.m.series - 1) / r.m.series)
}
