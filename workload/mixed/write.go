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

// feed is where a preload or a writer gets its points: fill puts the
// next n into p, ack acknowledges p's points once committed, and close
// ends the feed. Generated points feed from the seed, an imported file's
// from the file (imported.go).
type feed struct {
	fill  func(p *pointBatch, n int64) error
	ack   func(p *pointBatch)
	close func() error
}

// preloadFeed feeds the preload's points: the generated points
// 0..Points-1, round-robin over the series, or the file's first Points.
// Acknowledging generated ones is left to Run, which counts them.
func (r *runner) preloadFeed() (feed, error) {
	if r.file != nil {
		return r.file.preloadFeed()
	}
	var i int64
	return feed{
		fill: func(p *pointBatch, n int64) error {
			for end := i + n; i < end; i++ {
				p.add(i%r.cfg.Series, i/r.cfg.Series)
			}
			return nil
		},
		ack:   func(*pointBatch) {},
		close: func() error { return nil },
	}, nil
}

// writerFeed feeds the writer of the series [lo, hi): round-robin over
// them, each series' next generated point later in time, from its
// preloaded count on (Points/Series, one more for the first Points mod
// Series series); or the file's points of those series after the
// preload, in file order.
func (r *runner) writerFeed(lo, hi int64) (feed, error) {
	if r.file != nil {
		return r.file.writerFeed(r.cfg.Points, lo, hi, r.stopping)
	}
	k, s := r.cfg.Points/r.cfg.Series, lo
	return feed{
		fill: func(p *pointBatch, n int64) error {
			for int64(p.len()) < n {
				if k >= r.ack[s].Load() {
					p.add(s, k)
				}
				if s++; s == hi {
					s, k = lo, k+1
				}
			}
			return nil
		},
		ack: func(p *pointBatch) {
			for j, s := range p.series {
				r.ack[s].Store(p.ks[j] + 1)
			}
		},
		close: func() error { return nil },
	}, nil
}

// preload writes the preload's points as the time-series workload's
// write step does, in batches of Batch, timing only the engine's calls.
func (r *runner) preload(hist *measure.Histogram, done *atomic.Int64) (time.Duration, error) {
	b := r.db.NewBatch()
	defer b.Close()
	f, err := r.preloadFeed()
	if err != nil {
		return 0, err
	}
	defer f.close()
	p := &pointBatch{gen: r.gen}
	var spent time.Duration
	for start := int64(0); start < r.cfg.Points; start += r.cfg.Batch {
		p.reset()
		if err := f.fill(p, min(r.cfg.Batch, r.cfg.Points-start)); err != nil {
			return spent, fmt.Errorf("preload: %w", err)
		}
		d, err := p.commit(b)
		spent += d
		hist.Record(d)
		if err != nil {
			return spent, fmt.Errorf("preload: commit of points %d..%d: %w", start, start+int64(p.len())-1, err)
		}
		f.ack(p)
		done.Add(int64(p.len()))
	}
	return spent, nil
}

// writer ingests points into the series [lo, hi) until the run stops,
// in batches of Batch, each series' points in increasing time. After
// each commit it acknowledges the points, so that readers expect them.
// With a rate it paces itself to its share.
func (r *runner) writer(w *worker, lo, hi int64) error {
	b := r.db.NewBatch()
	defer b.Close()
	f, err := r.writerFeed(lo, hi)
	if err != nil {
		return fmt.Errorf("writer of series %d..%d: %w", lo, hi-1, err)
	}
	defer f.close()
	p := &pointBatch{gen: r.gen}
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
		if err := f.fill(p, r.cfg.Batch); err != nil {
			return fmt.Errorf("writer of series %d..%d: %w", lo, hi-1, err)
		}
		if p.len() == 0 { // the run is stopping
			continue
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
		f.ack(p)
		written += int64(p.len())
		w.count[0].Add(int64(p.len()))
	}
	return nil
}
