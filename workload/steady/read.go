package steady

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// kinds is how many query kinds there are: querymix.QueryKinds.
const kinds = 5

// reader runs queries drawn from the mix until the run stops.
type reader struct {
	r       *runner
	rng     *rand.Rand
	weights [kinds]int
	total   int
	// covered is how many kinds pick has gone through in turn.
	covered int
	segs    []segment
	chunk   scanbuf.Chunk
	hist    [kinds]timed
	count   atomic.Int64
	verify  [kinds]harness.Verification
	c       check
	fc      fileCheck // c's, on an imported file
	// spent is the engine's time in the read under way, its clock
	// running since t0 (scan).
	spent time.Duration
	t0    time.Time
}

func newReader(r *runner, id int) *reader {
	rd := &reader{r: r, rng: rand.New(rand.NewPCG(r.cfg.Seed, uint64(id)+1))}
	for k, name := range querymix.QueryKinds {
		rd.weights[k] = r.cfg.Mix.Weight(name)
		rd.total += rd.weights[k]
		rd.hist[k] = newTimed()
	}
	return rd
}

func (rd *reader) run() error {
	for !rd.r.stopping() {
		if rd.r.wm.Load() == 0 {
			time.Sleep(time.Millisecond) // nothing committed yet
			continue
		}
		k := rd.pick()
		if err := rd.query(k); err != nil {
			return fmt.Errorf("%s query: %w", querymix.QueryKinds[k], err)
		}
	}
	return nil
}

// pick returns the next query's kind: first each kind of the mix once, in
// turn, then kinds drawn by weight. So a run of a few queries a reader
// (a short test, a smoke run) still reports every kind the mix holds.
func (rd *reader) pick() int {
	for rd.covered < kinds {
		k := rd.covered
		rd.covered++
		if rd.weights[k] > 0 {
			return k
		}
	}
	x := rd.rng.IntN(rd.total)
	k := 0
	for x >= rd.weights[k] {
		x -= rd.weights[k]
		k++
	}
	return k
}

// query runs one query of kind k on live series, as of the watermark
// and retention when it starts, and checks it.
func (rd *reader) query(k int) error {
	r, m := rd.r, rd.r.m
	// Retention derives doneCut from a watermark already stored: loaded
	// first, it is never past the front of the watermark loaded next.
	done := r.doneCut.Load()
	wm := r.wm.Load()
	front := r.front(wm)
	lowest := max(done, m.origin+m.width) - m.width // one expired bucket, to see it gone
	// Nothing is committed past top: reading there would only cost
	// empty buckets and shards.
	end := r.front(r.top.Load()) + 1
	live := func() uint64 {
		if r.file != nil {
			return uint64(rd.rng.Int64N(m.series))
		}
		return m.id(rd.rng.Int64N(m.series), (wm-1)/m.series) // of the latest round committed
	}
	v := &rd.verify[k]
	var d time.Duration
	var err error
	switch querymix.QueryKinds[k] {
	case querymix.KindLast:
		d, err = rd.read(live(), lowest, end, wm, done, true, v)
	case querymix.KindRecent:
		d, err = rd.read(live(), max(front, lowest+uint64(r.cfg.Window))-uint64(r.cfg.Window), end, wm, done, false, v)
	case querymix.KindRange:
		a := done + uint64(rd.rng.Int64N(int64(front-done)+1))
		b := done + uint64(rd.rng.Int64N(int64(front-done)+1))
		d, err = rd.read(live(), min(a, b), max(a, b)+1, wm, done, false, v)
	case querymix.KindScan:
		d, err = rd.read(live(), lowest, end, wm, done, false, v)
	case querymix.KindMulti:
		for range multiSeries {
			var dd time.Duration
			dd, err = rd.read(live(), max(front, lowest+uint64(r.cfg.Window))-uint64(r.cfg.Window), end, wm, done, false, v)
			d += dd
			if err != nil {
				break
			}
		}
	}
	rd.hist[k].record(d)
	rd.count.Add(1)
	return err
}

// read reads series id's points with timestamps in [from, to), or only
// the latest of them (last), checks them against the model as of
// watermark wm and retention done when the read began, and returns the
// time the engine took.
func (rd *reader) read(id, from, to uint64, wm int64, done uint64, last bool, v *harness.Verification) (time.Duration, error) {
	r := rd.r
	c := &rd.c
	if r.file != nil {
		rd.fc.reset(r, id, from, to, r.gone(done), v)
	} else {
		c.reset(r.m, id, from, to, r.gone(done), v)
	}
	segs, err := r.store.segments(rd.segs[:0], id, from, to)
	rd.segs = segs
	defer release(segs)
	if err != nil {
		return 0, err
	}
	rd.spent, rd.t0 = 0, time.Now()
	if last {
		for i := len(segs) - 1; i >= 0 && err == nil; i-- {
			var found bool
			if found, err = rd.scan(&segs[i], true); found {
				break
			}
		}
	} else {
		for i := range segs {
			if _, err = rd.scan(&segs[i], false); err != nil {
				break
			}
		}
	}
	rd.spent += time.Since(rd.t0)
	rd.checkChunk()
	if err == nil && r.file == nil {
		c.finish(wm, r.present(), last)
	}
	return rd.spent, err
}

// scan reads one segment of a read into rd.chunk, checking each full
// chunk with the engine's clock (rd.spent, running since rd.t0) stopped,
// and says whether it found a point. A method, not a closure over read's
// variables, and sg a pointer into rd.segs, so that a read allocates
// nothing (the bounds' slices would move either to the heap): readers on
// a fast engine read without pause.
func (rd *reader) scan(sg *segment, last bool) (bool, error) {
	it, err := sg.db.NewIterator(engine.IterOptions{LowerBound: sg.lo[:], UpperBound: sg.hi[:]})
	if err != nil {
		return false, err
	}
	found := false
	if last {
		if found = it.Last(); found {
			rd.chunk.Add(it.Key(), it.Value())
		}
	} else {
		for ok := it.First(); ok; ok = it.Next() {
			rd.chunk.Add(it.Key(), it.Value())
			if rd.chunk.Len() == scanbuf.ChunkEntries {
				rd.spent += time.Since(rd.t0)
				rd.checkChunk()
				rd.t0 = time.Now()
			}
		}
	}
	err = it.Err()
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	return found, err
}

func (rd *reader) checkChunk() {
	for k, v := range rd.chunk.All() {
		if rd.r.file != nil {
			rd.fc.entry(k, v)
		} else {
			rd.c.entry(k, v)
		}
	}
	rd.chunk.Reset()
}

// check verifies one read of one series against the model.
type check struct {
	m          model
	v          *harness.Verification
	id         uint64
	j          int64
	from, to   uint64
	done       uint64 // retention had deleted everything before it
	life, dead int64  // the series' rounds
	rounds     []int64
}

func (c *check) reset(m model, id, from, to, done uint64, v *harness.Verification) {
	c.m, c.v, c.id, c.j, c.from, c.to, c.done = m, v, id, int64(id)%m.series, from, to, done
	c.life, c.dead = m.life(id)
	c.rounds = c.rounds[:0]
}

// entry checks one point read.
func (c *check) entry(key, val []byte) {
	m, v := c.m, c.v
	v.Read++
	// A key the read should not have returned, and a wrong value.
	unexpected := func(format string, args ...any) {
		v.Unexpected++
		v.Note("series %d: "+format, append([]any{c.id}, args...)...)
	}
	series, ts, seq, err := m.layout.ParseKey(key)
	switch {
	case err != nil:
		unexpected("%v", err)
		return
	case series != c.id:
		unexpected("read a point of series %d", series)
		return
	case ts < c.from || ts >= c.to:
		unexpected("timestamp %d outside the range [%d, %d) asked for", ts, c.from, c.to)
		return
	case (ts-points.Epoch)%m.step != 0:
		unexpected("timestamp %d is not a round's", ts)
		return
	}
	rnd := int64((ts - points.Epoch) / m.step)
	i := rnd*m.series + c.j
	switch {
	case rnd < c.life || rnd >= c.dead:
		unexpected("round %d is outside the series' life [%d, %d)", rnd, c.life, c.dead)
		return
	case !m.layout.BucketMajor() && seq != uint64(i)+1:
		unexpected("round %d has sequence %d, want %d", rnd, seq, i+1)
		return
	case len(c.rounds) > 0 && rnd <= c.rounds[len(c.rounds)-1]:
		unexpected("round %d read after round %d", rnd, c.rounds[len(c.rounds)-1])
		return
	}
	c.rounds = append(c.rounds, rnd)
	if ts < c.done {
		v.Expired++
		v.Note("series %d: read round %d (timestamp %d), which retention had deleted (everything before %d)", c.id, rnd, ts, c.done)
	}
	if bad := m.values.CheckValue(uint64(i)+1, val); bad != "" {
		v.Wrong++
		v.Note("series %d: round %d: %s", c.id, rnd, bad)
	}
}

// finish counts what the read should have found and did not: every
// round of the series in the range committed below watermark wm and not
// before present, from which every point must be there when the read
// ended (runner.present); for a read of the latest point only, that it
// is not older than the latest of those.
func (c *check) finish(wm int64, present uint64, last bool) {
	m := c.m
	lo := max(c.life, m.roundAt(max(c.from, present)))
	hi := min(c.dead, m.roundAt(c.to), m.committedRounds(c.j, wm))
	if hi <= lo {
		return
	}
	if last {
		if len(c.rounds) == 0 || c.rounds[len(c.rounds)-1] < hi-1 {
			c.v.Missing++
			if !c.v.Noted() {
				c.v.Note("series %d: the latest point read is older than round %d, committed", c.id, hi-1)
			}
		}
		return
	}
	a, _ := slices.BinarySearch(c.rounds, lo)
	b, _ := slices.BinarySearch(c.rounds, hi)
	if n := (hi - lo) - int64(b-a); n > 0 {
		c.v.Missing += n
		if !c.v.Noted() {
			c.v.Note("series %d: %d of rounds [%d, %d) missing", c.id, n, lo, hi)
		}
	}
}
