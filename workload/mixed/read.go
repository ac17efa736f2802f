package mixed

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// reader runs queries drawn from the mix until the run stops.
type reader struct {
	r      *runner
	w      *worker
	rng    *rand.Rand
	chunk  scanbuf.Chunk
	lo, hi []byte  // bounds, reused
	multi  []int64 // a multi query's series
	acked  []int64 // and their acknowledged counts
	// fileAcked are, of an imported file, what was acknowledged of the
	// multi query's series; fileCheck is the check of the read under way.
	fileAcked []fileAck
	fileCheck fileCheck
}

func (r *runner) reader(w *worker, id int) error {
	rd := &reader{
		r:     r,
		w:     w,
		rng:   rand.New(rand.NewPCG(r.cfg.Seed, uint64(id)+1)),
		lo:    make([]byte, tskey.KeySize),
		hi:    make([]byte, tskey.KeySize),
		multi: make([]int64, r.cfg.MultiSeries),
	}
	if r.file != nil {
		rd.fileAcked = make([]fileAck, r.cfg.MultiSeries)
	} else {
		rd.acked = make([]int64, r.cfg.MultiSeries)
	}
	for !r.stopping() {
		w.pastWarmup(r)
		kind := r.picker.Pick(rd.rng.Uint64())
		var err error
		if querymix.QueryKinds[kind] == querymix.KindMulti {
			err = rd.multiQuery(kind)
		} else {
			err = rd.seriesQuery(kind, r.chooser.next(rd.rng))
		}
		if err != nil {
			return fmt.Errorf("%s query: %w", querymix.QueryKinds[kind], err)
		}
	}
	return nil
}

// seriesQuery runs one query of a single series: last, recent, range or
// scan. It reads what writers had acknowledged before it starts, so that
// those points, and any written since, are what it may see.
func (rd *reader) seriesQuery(kind int, s int64) error {
	if rd.r.file != nil {
		c, from, to := rd.fileQuery(kind, s)
		return rd.query(kind, &c, from, to)
	}
	g, n := rd.r.gen, rd.r.ack[s].Load()
	c := checker{gen: g, v: &rd.w.verify[kind+1], series: s, acked: n}
	from, to := uint64(0), uint64(0) // timestamps; to == 0: to the series' end
	switch querymix.QueryKinds[kind] {
	case querymix.KindLast:
		c.last = true
	case querymix.KindRecent:
		if n > 0 {
			end := timestamp(g, s, n-1)
			from = max(end, points.Epoch+uint64(rd.r.cfg.Window)) - uint64(rd.r.cfg.Window)
			c.next = firstAt(g, s, from)
		}
	case querymix.KindRange:
		if n > 0 {
			a, b := rd.rng.Int64N(n), rd.rng.Int64N(n)
			a, b = min(a, b), max(a, b)
			from, to = timestamp(g, s, a), timestamp(g, s, b)+1
			c.next, c.acked = a, b+1
		}
	}
	return rd.query(kind, &c, from, to)
}

// query reads c's series from timestamp from to to (0: to the series'
// end), or with c.last its latest point, and checks what it read with c.
func (rd *reader) query(kind int, c *checker, from, to uint64) error {
	s := c.series
	tskey.PutKey(rd.lo, uint64(s), from, 0)
	if to == 0 {
		tskey.PutKey(rd.hi, uint64(s)+1, 0, 0)
	} else {
		tskey.PutKey(rd.hi, uint64(s), to, 0)
	}
	before := c.v.Read
	t0 := time.Now()
	it, err := rd.r.db.NewIterator(engine.IterOptions{LowerBound: rd.lo, UpperBound: rd.hi})
	if err != nil {
		return err
	}
	var spent time.Duration
	if c.last {
		if it.Last() {
			rd.chunk.Add(it.Key(), it.Value())
		}
	} else {
		spent, t0 = rd.drain(it, it.First(), c, t0)
	}
	err = it.Err()
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	d := spent + time.Since(t0)
	checkChunk(&rd.chunk, c)
	c.finish()
	rd.record(kind, d, c.v.Read-before)
	return err
}

// multiQuery reads the last Window of MultiSeries series under one
// snapshot, with one iterator moved from series to series by SetBounds:
// one view of several series, as a dashboard panel needs.
func (rd *reader) multiQuery(kind int) error {
	v := &rd.w.verify[kind+1]
	from, end := rd.pickMulti()
	t0 := time.Now()
	snap, err := engine.NewSnapshot(rd.r.db)
	if err != nil {
		return err
	}
	var it engine.Iterator
	var spent time.Duration
	var read int64
	for j, s := range rd.multi {
		tskey.PutKey(rd.lo, uint64(s), from, 0)
		if end == 0 {
			tskey.PutKey(rd.hi, uint64(s)+1, 0, 0)
		} else {
			tskey.PutKey(rd.hi, uint64(s), end, 0)
		}
		bounds := engine.IterOptions{LowerBound: rd.lo, UpperBound: rd.hi}
		if it == nil {
			it, err = snap.NewIterator(bounds)
		} else {
			it, err = engine.SetBounds(snap, it, bounds)
		}
		if err != nil {
			break
		}
		c := rd.multiChecker(v, j, from, end)
		before := v.Read
		var d time.Duration
		d, t0 = rd.drain(it, it.First(), &c, t0)
		spent += d + time.Since(t0)
		checkChunk(&rd.chunk, &c) // untimed
		c.finish()
		read += v.Read - before
		t0 = time.Now()
		if err = it.Err(); err != nil {
			break
		}
	}
	if it != nil {
		if cerr := it.Close(); err == nil {
			err = cerr
		}
	}
	if cerr := snap.Close(); err == nil {
		err = cerr
	}
	rd.record(kind, spent+time.Since(t0), read)
	return err
}

// pickMulti picks a multi query's series into rd.multi, noting what
// writers had acknowledged of each, and returns its window: the last
// Window before the latest acknowledged point of them, from timestamp
// from to end (0: to the series' end).
func (rd *reader) pickMulti() (from, end uint64) {
	if rd.r.file != nil {
		return rd.pickFileMulti()
	}
	g := rd.r.gen
	for j := range rd.multi {
		s := rd.r.chooser.next(rd.rng)
		rd.multi[j], rd.acked[j] = s, rd.r.ack[s].Load()
		if n := rd.acked[j]; n > 0 {
			end = max(end, timestamp(g, s, n-1)+1)
		}
	}
	if end == 0 {
		return 0, points.Epoch
	}
	return max(end, points.Epoch+uint64(rd.r.cfg.Window)) - uint64(rd.r.cfg.Window), end
}

// multiChecker is the check of the multi query's j-th series over its
// window.
func (rd *reader) multiChecker(v *harness.Verification, j int, from, end uint64) checker {
	s := rd.multi[j]
	if rd.r.file != nil {
		rd.fileCheck = rd.r.file.checkRead(rd.fileAcked[j], from, end)
		return checker{v: v, series: s, file: &rd.fileCheck}
	}
	g := rd.r.gen
	return checker{gen: g, v: v, series: s, next: firstAt(g, s, from), acked: min(rd.acked[j], firstAt(g, s, end))}
}

// drain reads it from its position on into the chunk, checking each full
// chunk with the timer paused. It returns the time spent so far and the
// restarted timer.
func (rd *reader) drain(it engine.Iterator, ok bool, c *checker, t0 time.Time) (time.Duration, time.Time) {
	var spent time.Duration
	for ; ok; ok = it.Next() {
		rd.chunk.Add(it.Key(), it.Value())
		if rd.chunk.Len() == scanbuf.ChunkEntries {
			spent += time.Since(t0)
			checkChunk(&rd.chunk, c)
			t0 = time.Now()
		}
	}
	return spent, t0
}

// record counts one query of kind that took d and read points.
func (rd *reader) record(kind int, d time.Duration, points int64) {
	rd.w.hist[kind+1].Record(d)
	rd.w.points[kind+1] += points
	rd.w.count[kind+1].Add(1)
}
