package steady

import (
	"fmt"
	"time"

	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/measure"
)

// Retention is what deleting expired data did over the run.
type Retention struct {
	// Passes counts the times retention deleted a bucket's worth or
	// more.
	Passes int64 `json:"passes"`
	// Deletes counts the DeleteRange calls (delete and bucket methods).
	Deletes int64 `json:"delete_ranges"`
	// ShardsOpened and ShardsDropped count the shards method's engine
	// instances.
	ShardsOpened  int64 `json:"shards_opened,omitempty"`
	ShardsDropped int64 `json:"shards_dropped,omitempty"`
	// Expired is how many committed points lie before the final
	// cutoff.
	Expired int64 `json:"expired_points"`
	// Lingering is how many of them the engine still held at the end:
	// with MethodTTL, those it had not dropped yet; 0 otherwise.
	Lingering int64 `json:"lingering_points,omitempty"`
	// Cutoff is the data time (from the first point) before which
	// everything was deleted at the end; with MethodTTL, before which
	// the engine's expiry may have dropped points.
	Cutoff time.Duration `json:"cutoff_ns"`
	// Latency is the distribution of the passes' wall times.
	Latency *measure.Percentiles `json:"latency,omitempty"`
}

// retainer deletes what expires, one bucket width at a time, as the
// watermark moves the data's front on.
type retainer struct {
	r    *runner
	hist *measure.Histogram
	res  Retention
	buf  []byte // 2*tskey.KeySize, for the bounds
}

// target is the cutoff retention should have reached for watermark wm:
// the front minus the retention window, rounded down to a bucket.
func (rt *retainer) target(wm int64) uint64 {
	r, m := rt.r, rt.r.m
	if wm == 0 {
		return m.origin
	}
	front := r.front(wm) - m.origin
	if front < uint64(r.cfg.Retention) {
		return m.origin
	}
	return m.origin + (front-uint64(r.cfg.Retention))/m.width*m.width
}

// pass deletes everything before the target of the current watermark,
// if it moved; it publishes the cutoff it deletes to before it starts and
// once it is done, which is what readers expect.
func (rt *retainer) pass() error {
	r, m := rt.r, rt.r.m
	done := r.doneCut.Load()
	to := rt.target(r.wm.Load())
	if to <= done {
		return nil
	}
	if r.cfg.Method == MethodTTL {
		// The engine drops expired points by itself: the window moves
		// on for the queries' ranges, and nothing is deleted.
		r.deleting.Store(to)
		r.doneCut.Store(to)
		return nil
	}
	r.deleting.Store(to)
	t0 := time.Now()
	switch r.cfg.Method {
	case MethodDelete:
		var err error
		from, until := m.roundAt(done), m.roundAt(to)
		if r.file != nil { // every series of the file: any round lists them
			from, until = 0, 1
		}
		m.ids(from, until, func(id uint64) {
			if err != nil {
				return
			}
			lo, hi := tskey.TimeBounds(rt.buf, id, done, to)
			err = r.store.single.DeleteRange(lo, hi)
			rt.res.Deletes++
		})
		if err != nil {
			return fmt.Errorf("retention: DeleteRange: %w", err)
		}
	case MethodBucket:
		// A DeleteRange per bucket, up to the next one as a prefix of 8
		// bytes: the range an engine ordered within prefixes takes.
		for b := m.layout.Bucket(done); b < m.layout.Bucket(to); b++ {
			lo, hi := tskey.BucketBounds(rt.buf, b, b+1)
			if err := r.store.single.DeleteRange(lo, hi[:seriesPrefix]); err != nil {
				return fmt.Errorf("retention: DeleteRange of bucket %d: %w", b, err)
			}
			rt.res.Deletes++
		}
	case MethodShards:
		n, err := r.store.dropBelow(r.store.shardOf(to))
		rt.res.ShardsDropped += int64(n)
		if err != nil {
			return fmt.Errorf("retention: %w", err)
		}
	}
	rt.hist.Record(time.Since(t0))
	rt.res.Passes++
	r.doneCut.Store(to)
	return nil
}

// result is what retention did, with the final cutoff.
func (rt *retainer) result() Retention {
	r, m := rt.r, rt.r.m
	res := rt.res
	done := r.doneCut.Load()
	res.Cutoff = time.Duration(done - m.origin)
	res.Expired = r.expired(done)
	res.ShardsOpened = r.store.opened
	if p := rt.hist.Percentiles(); p.Count > 0 {
		res.Latency = &p
	}
	return res
}
