package timeseries

import (
	"fmt"
	"time"

	"github.com/tsbench/storage/engine/tskey"
)

// delete returns the body of the delete step: retention drops the points
// with index below h, which are the oldest of every series, by deleting
// from each series the timestamps before that of point h. Series s loses
// Count(0, h, s) points: half of its points, rounded up or down.
func (r *runner) delete(h int64) func(*stepRun) error {
	return func(s *stepRun) error {
		_, cutoff, _ := r.gen.Point(h)
		for series := range r.cfg.Series {
			if r.stopped() {
				return ErrStopped
			}
			start, end := tskey.TimeBounds(r.bounds, uint64(series), 0, cutoff)
			n := r.gen.Count(0, h, series)
			if r.file != nil {
				start, end, n = r.fileCut(series)
			}
			t0 := time.Now()
			err := r.db.DeleteRange(start, end)
			s.add(time.Since(t0))
			if err != nil {
				return fmt.Errorf("series %d: delete range: %w", series, err)
			}
			s.done.Add(n)
		}
		return nil
	}
}

// compact is the body of the compaction step: the whole key space, once.
func (r *runner) compact(s *stepRun) error {
	t0 := time.Now()
	err := r.db.Compact(nil, nil)
	s.spend(time.Since(t0))
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	s.done.Add(r.cfg.Points - r.cfg.deleted())
	return nil
}
