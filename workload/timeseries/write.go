package timeseries

import (
	"bytes"
	"errors"
	"fmt"
	"time"
)

// write returns the body of a write step: points [lo, hi) in batches. Each
// batch is generated and encoded before its timer starts; the timer covers
// only the engine's Batch.Put calls and Commit.
func (r *runner) write(lo, hi int64) func(*stepRun) error {
	return func(s *stepRun) (err error) {
		fill, closeFill, err := r.filler(lo)
		if err != nil {
			return err
		}
		defer closeFill()
		b := r.db.NewBatch()
		defer func() {
			if cerr := b.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("closing batch: %w", cerr)
			}
		}()
		for start := lo; start < hi; start += r.cfg.Batch {
			if r.stopped() {
				return ErrStopped
			}
			n := min(r.cfg.Batch, hi-start)
			if err := fill(start, n); err != nil {
				return err
			}
			t0 := time.Now()
			for j := range r.batch.Len() {
				b.Put(r.batch.Key(j), r.batch.Value(j))
			}
			err := b.Commit()
			s.add(time.Since(t0))
			if err != nil {
				return fmt.Errorf("commit of points %d..%d: %w", start, start+n-1, err)
			}
			s.logical += r.batch.Logical()
			s.done.Add(n)
		}
		return nil
	}
}

// spotCheck reads back the first and last point a write step wrote, after
// the step was measured. Step 6 has no query after it, so this is what
// catches acknowledged writes that never became visible.
func (r *runner) spotCheck(lo, hi int64) func() error {
	return func() error {
		if hi <= lo {
			return nil
		}
		var errs []error
		for _, i := range []int64{lo, hi - 1} {
			seq := i + 1
			key, want, err := r.point(i)
			if err != nil {
				errs = append(errs, fmt.Errorf("%w: point seq %d: %w", ErrVerification, seq, err))
				continue
			}
			got, err := r.db.Get(key)
			if err != nil {
				errs = append(errs, fmt.Errorf("%w: reading back point seq %d: %w", ErrVerification, seq, err))
				continue
			}
			if !bytes.Equal(got, want) {
				errs = append(errs, fmt.Errorf("%w: reading back point seq %d: value %x, want %x", ErrVerification, seq, got, want))
			}
		}
		return errors.Join(errs...)
	}
}
