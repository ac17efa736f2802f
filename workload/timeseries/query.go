package timeseries

import (
	"fmt"
	"strings"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// query returns the body of a query step expecting exactly the points with
// index in [lo, hi). Each series is read with an iterator bounded to it,
// from its first entry on, many entries per call (engine.AppendEntries;
// First then Next where the engine has no such call): a fresh iterator
// per series, or with Config.ReuseIterator the step's one iterator given
// new bounds. The timer covers the engine calls and the copying of each
// entry into a reused buffer (by the C engines themselves, the one copy
// it gets); decoding and checking the copies happens with the timer
// paused, one chunk at a time.
func (r *runner) query(lo, hi int64) func(*stepRun) error {
	return func(s *stepRun) (err error) {
		// Expected grows series by series, so that a stopped step's
		// counts are those of the series it read.
		v := &harness.Verification{}
		s.verify = v
		defer func() {
			if r.it == nil {
				return
			}
			// The one iterator's Close is engine time of no series.
			t0 := time.Now()
			cerr := r.it.Close()
			s.spend(time.Since(t0))
			r.it = nil
			if err == nil && cerr != nil {
				err = fmt.Errorf("close iterator: %w", cerr)
			}
		}()
		for series := range r.cfg.Series {
			if r.stopped() {
				return ErrStopped
			}
			c := checker{gen: r.gen, v: v, series: series, next: r.gen.First(lo, series), hi: hi}
			if r.file != nil {
				c.imported = r.fileCheck(series, lo > 0)
				v.Expected += c.imported.want.N
			} else {
				v.Expected += r.gen.Count(lo, hi, series)
			}
			read, err := r.scan(s, &c)
			c.finish()
			s.logical += c.bytes
			s.done.Add(read)
			if err != nil {
				return fmt.Errorf("series %d: %w", series, err)
			}
		}
		return nil
	}
}

// iterator returns an iterator bounded to opts: a new one, or with
// Config.ReuseIterator the step's one (r.it), made by the first call and
// given new bounds by the others.
func (r *runner) iterator(opts engine.IterOptions) (engine.Iterator, error) {
	if !r.cfg.ReuseIterator || r.it == nil {
		it, err := r.db.NewIterator(opts)
		if err != nil {
			return nil, fmt.Errorf("new iterator: %w", err)
		}
		if r.cfg.ReuseIterator {
			r.it = it
		}
		return it, nil
	}
	var err error
	if r.it, err = engine.SetBounds(r.db, r.it, opts); err != nil {
		return nil, fmt.Errorf("set bounds: %w", err)
	}
	return r.it, nil
}

// scan reads one series, timing it as one latency sample.
func (r *runner) scan(s *stepRun, c *checker) (read int64, err error) {
	// A reused iterator may still hold the previous series' bounds until
	// SetBounds replaces them, so consecutive series use the two halves
	// of r.bounds in turn.
	buf := r.bounds[:2*tskey.KeySize]
	if c.series%2 == 1 {
		buf = r.bounds[2*tskey.KeySize:]
	}
	lower, upper := tskey.SeriesBounds(buf, uint64(c.series))
	upper = withinPrefix(r.db, upper)
	var spent time.Duration
	t0 := time.Now()
	it, err := r.iterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		s.add(time.Since(t0))
		return 0, err
	}
	r.chunk.Reset()
	for more, first := true, true; more; first = false {
		more = r.chunk.Fill(it, scanbuf.ChunkEntries-r.chunk.Len(), first)
		if r.chunk.Len() == scanbuf.ChunkEntries {
			spent += time.Since(t0)
			read += int64(r.chunk.Len())
			verifyChunk(&r.chunk, c)
			t0 = time.Now()
			if c.past {
				break // the engine ignored the upper bound: skip the rest
			}
		}
	}
	err = it.Err()
	if !r.cfg.ReuseIterator {
		if cerr := it.Close(); err == nil {
			err = cerr
		}
	}
	s.add(spent + time.Since(t0))
	read += int64(r.chunk.Len())
	verifyChunk(&r.chunk, c)
	if err != nil {
		return read, fmt.Errorf("iterator: %w", err)
	}
	return read, nil
}

// verifyChunk checks every entry of ch with c and empties ch.
func verifyChunk(ch *scanbuf.Chunk, c *checker) {
	for k, v := range ch.All() {
		c.check(k, v)
	}
	ch.Reset()
}

// checker verifies one series' scan: it expects the points of the series
// with index next, next+Series, ... below hi, in that order, and counts
// whatever differs in v.
type checker struct {
	gen    points.Generator
	v      *harness.Verification
	series int64
	next   int64 // index of the next expected point
	hi     int64
	bytes  int64 // key+value bytes read
	past   bool  // saw a key beyond the series: the bound was ignored
	// imported checks an imported file's points in place of gen's
	// (imported.go).
	imported *fileCheck
}

func (c *checker) check(key, val []byte) {
	c.v.Read++
	c.bytes += int64(len(key) + len(val))
	if c.imported != nil {
		c.imported.check(c, key, val)
		return
	}
	series, ts, seq, err := tskey.ParseKey(key)
	if err != nil {
		c.unexpected("series %d: %v", c.series, err)
		return
	}
	if series != uint64(c.series) {
		c.unexpected("series %d: iterator returned a key of series %d", c.series, series)
		c.past = series > uint64(c.series)
		return
	}
	i := int64(seq - 1)
	// The expected point is the common case; the divisions of the other
	// checks cost more than the rest of the check together.
	if i != c.next || seq > uint64(c.hi) {
		if seq == 0 || seq > uint64(c.hi) || i < c.next || (i-c.series)%c.gen.Series != 0 {
			c.unexpected("series %d: unexpected point seq %d (deleted, duplicated, out of order or never written)", c.series, seq)
			return
		}
		skipped := (i - c.next) / c.gen.Series
		c.v.Missing += skipped
		c.v.Note("series %d: %d points missing before seq %d", c.series, skipped, seq)
	}
	if want := c.gen.Timestamp(i); ts != want {
		c.unexpected("series %d: point seq %d has timestamp %d, want %d", c.series, seq, ts, want)
		return
	}
	c.next = i + c.gen.Series
	if bad := c.gen.CheckValue(seq, val); bad != "" {
		c.v.Wrong++
		c.v.Note("series %d: point seq %d: %s", c.series, seq, bad)
	}
}

// finish counts the expected points after the last one read as missing.
func (c *checker) finish() {
	if c.imported != nil {
		c.imported.finish(c)
		return
	}
	if c.next >= c.hi {
		return
	}
	n := (c.hi - c.next + c.gen.Series - 1) / c.gen.Series
	c.v.Missing += n
	c.v.Note("series %d: %d points missing from seq %d on", c.series, n, c.next+1)
}

func (c *checker) unexpected(format string, args ...any) {
	c.v.Unexpected++
	c.v.Note(format, args...)
}

// withinPrefix returns a series' upper bound as an engine ordered only
// within prefixes (engine.OrderPrefix) takes it: the next series' key
// with zero bytes after the prefix becomes that prefix alone, the same
// range for keys of tskey.KeySize bytes, all longer than the prefix.
func withinPrefix(db engine.Engine, upper []byte) []byte {
	n := engine.OrderPrefix(db)
	if n == 0 || len(upper) <= n || strings.Trim(string(upper[n:]), "\x00") != "" {
		return upper
	}
	return upper[:n]
}
