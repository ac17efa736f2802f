package mixed

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/points"
)

// pointBatch is one batch of generated, encoded points in buffers reused from
// batch to batch, so that writing allocates nothing per point.
type pointBatch struct {
	gen    points.Generator
	keys   []byte
	vals   []byte
	ends   []int   // ends[j] is where value j ends in vals
	series []int64 // series of point j
	ks     []int64 // point j is point ks[j] of its series
}

func (p *pointBatch) reset() {
	p.keys, p.vals, p.ends = p.keys[:0], p.vals[:0], p.ends[:0]
	p.series, p.ks = p.series[:0], p.ks[:0]
}

// add generates point k of series s.
func (p *pointBatch) add(s, k int64) {
	i := k*p.gen.Series + s
	ser, ts, seq := p.gen.Point(i)
	p.keys = tskey.AppendKey(p.keys, ser, ts, seq)
	p.vals = p.gen.Encode(p.vals, seq)
	p.ends = append(p.ends, len(p.vals))
	p.series = append(p.series, s)
	p.ks = append(p.ks, k)
}

func (p *pointBatch) len() int { return len(p.ends) }

// commit puts the points into b and commits it, returning the time the
// engine took.
func (p *pointBatch) commit(b engine.Batch) (time.Duration, error) {
	t0 := time.Now()
	from := 0
	for j, end := range p.ends {
		b.Put(p.keys[j*tskey.KeySize:(j+1)*tskey.KeySize], p.vals[from:end])
		from = end
	}
	err := b.Commit()
	return time.Since(t0), err
}

// preload writes points 0..Points-1 as the time-series workload's write
// step does, round-robin over the series in batches of Batch, timing only
// the engine's calls.
func (r *runner) preload(hist *measure.Histogram, done *atomic.Int64) (time.Duration, error) {
	b := r.db.NewBatch()
	defer b.Close()
	p := &pointBatch{gen: r.gen}
	var spent time.Duration
	for start := int64(0); start < r.cfg.Points; start += r.cfg.Batch {
		p.reset()
		for i := start; i < min(start+r.cfg.Batch, r.cfg.Points); i++ {
			p.add(i%r.cfg.Series, i/r.cfg.Series)
		}
		d, err := p.commit(b)
		spent += d
		hist.Record(d)
		if err != nil {
			return spent, fmt.Errorf("preload: commit of points %d..%d: %w", start, start+int64(p.len())-1, err)
		}
		done.Add(int64(p.len()))
	}
	return spent, nil
}

// writer ingests points into the series [lo, hi) until the run stops:
// round-robin over its series, each next point of a series later in time,
// in batches of Batch. After each commit it acknowledges the points, so
// that readers expect them. With a rate it paces itself to its share.
func (r *runner) writer(w *worker, lo, hi int64) error {
	b := r.db.NewBatch()
	defer b.Close()
	p := &pointBatch{gen: r.gen}
	// Every series starts at its preloaded count: Points/Series, one
	// more for the first Points mod Series series.
	k, s := r.cfg.Points/r.cfg.Series, lo
	var perSec float64
	if r.cfg.Rate > 0 {
		perSec = r.cfg.Rate * float64(hi-lo) / float64(r.cfg.Series)
	}
	start := time.Now()
	var written int64
	pause := time.NewTimer(0)
	defer pause.Stop()
	for !r.stopping() {
		w.pastWarmup(r)
		p.reset()
		for int64(p.len()) < r.cfg.Batch {
			if k >= r.ack[s].Load() {
				p.add(s, k)
			}
			if s++; s == hi {
				s, k = lo, k+1
			}
		}
		if perSec > 0 {
			if wait := time.Until(start.Add(time.Duration(float64(written) / perSec * float64(time.Second)))); wait > 0 {
				pause.Reset(wait)
				select {
				case <-pause.C:
				case <-r.stopped.Done():
					return nil
				}
			}
		}
		d, err := p.commit(b)
		if err != nil {
			return fmt.Errorf("writer of series %d..%d: commit: %w", lo, hi-1, err)
		}
		w.hist[0].Record(d)
		for j, s := range p.series {
			r.ack[s].Store(p.ks[j] + 1)
		}
		written += int64(p.len())
		w.count[0].Add(int64(p.len()))
	}
	return nil
}
