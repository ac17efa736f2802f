package steady

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// tick is how often the watermark moves on and retention looks for
// expired data.
const tick = 5 * time.Millisecond

// runner is one Run.
type runner struct {
	cfg      Config
	m        model
	store    *store
	dir      string
	log      io.Writer
	batches  int64         // the schedule's
	rounds   int64         // rounds the schedule covers
	maxDelay int64         // slots a late batch waits at most
	expiry   time.Duration // the engine's, with MethodTTL; else 0
	start    time.Time
	deadline time.Time // past it, a writer behind the schedule gives up

	done     []atomic.Uint64 // bit b: batch b committed
	wm       atomic.Int64    // every point below it is committed
	wmBatch  int64           // the sampler's: the first batch not committed
	top      atomic.Int64    // one past the highest point committed
	points   atomic.Int64    // committed
	logical  atomic.Int64    // their key and value bytes
	deleting atomic.Uint64   // retention deletes everything before it
	doneCut  atomic.Uint64   // retention has deleted everything before it

	writers []*writer
	readers []*reader

	// warmAt is when the warm-up ended (Config.Warmup), zero until then,
	// and warmPoints the points committed by then: the sampler's.
	warmAt     time.Time
	warmPoints int64

	// stopped is done once the run stops: the writers are done, one
	// failed, or they fell too far behind; halt stops it, as often as
	// need be.
	stopped context.Context
	halt    context.CancelFunc
}

// stopping reports whether the run has stopped.
func (r *runner) stopping() bool { return r.stopped.Err() != nil }

// committed records batch b's commit of n points.
func (r *runner) committed(b, n, logical int64) {
	// top first: a reader that sees the watermark past b must see top
	// past it too.
	for end := (b + 1) * r.m.batch; ; {
		if cur := r.top.Load(); end <= cur || r.top.CompareAndSwap(cur, end) {
			break
		}
	}
	r.done[b/64].Or(1 << (b % 64))
	r.points.Add(n)
	r.logical.Add(logical)
}

func (r *runner) isDone(b int64) bool { return r.done[b/64].Load()&(1<<(b%64)) != 0 }

// advance moves the watermark past every batch committed in a row.
func (r *runner) advance() {
	for r.wmBatch < r.batches && r.isDone(r.wmBatch) {
		r.wmBatch++
	}
	r.wm.Store(r.wmBatch * r.m.batch)
}

// Run runs cfg's schedule on db, whose files live in dir (with
// MethodShards db is nil, and cfg.Open opens each shard in a directory
// under dir): writers ingest at the rate while retention deletes what
// expires and readers query, every answer checked against the model;
// then a final check reads everything the store holds. It returns what
// was done and measured. An engine error stops the run; a verification
// failure is recorded and the run goes on. The error is nil only if
// everything passed; it wraps ErrVerification or the engine's error. Run
// returns a nil Result only for an invalid cfg (ErrInvalidConfig).
func Run(db engine.Engine, dir string, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.WithDefaults()
	values, err := cfg.Values.Load()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	m := newModel(cfg, values)
	r := &runner{cfg: cfg, m: m, dir: dir, log: cfg.Log}
	r.stopped, r.halt = context.WithCancel(context.Background())
	defer r.halt()
	if r.log == nil {
		r.log = io.Discard
	}
	r.batches = int64(cfg.Rate*cfg.Duration.Seconds()) / cfg.Batch
	r.rounds = (r.batches*cfg.Batch + m.series - 1) / m.series
	r.maxDelay = max(1, int64(cfg.LateWindow/max(m.batchData(), 1)))
	r.done = make([]atomic.Uint64, (r.batches+63)/64)
	r.deleting.Store(points.Epoch)
	r.doneCut.Store(points.Epoch)
	r.store = &store{m: m, single: db, open: cfg.Open, dir: dir, shards: map[uint64]*shard{}}
	if cfg.Method != MethodShards && db == nil {
		return nil, fmt.Errorf("%w: no engine to run on", ErrInvalidConfig)
	}
	if cfg.Method == MethodTTL {
		if err := checkExpiry(db, cfg); err != nil {
			return nil, err
		}
		r.expiry = cfg.Expiry()
	}
	res := &Result{Config: cfg, Scheduled: r.batches * cfg.Batch}
	var pids []int
	if db != nil {
		pids = harness.EnginePIDs(db)
	}
	span, err := harness.StartSpan(pids...)
	if err != nil {
		return nil, err
	}
	errs := r.runAll(res, span)
	res.Elapsed = span.Elapsed()
	res.Cost = span.End((&harness.Warnings{Log: r.log, Prefix: "steady", Part: "run"}).Missing)
	if len(errs) == 0 {
		res.Final = r.finalCheck(&res.Retention)
		if !res.Final.OK() {
			errs = append(errs, fmt.Errorf("final check: %w: %s", ErrVerification, res.Final.Summary("points")))
		}
	}
	for _, q := range res.Queries {
		if !q.Verify.OK() {
			errs = append(errs, fmt.Errorf("%s queries: %w: %s", q.Kind, ErrVerification, q.Verify.Summary("points")))
		}
	}
	if u, err := diskusage.Measure(dir); err == nil {
		res.Disk = u
		if f := res.Final; f != nil && f.Read > 0 {
			res.BytesPerPoint = float64(u.Used) / float64(f.Read)
		}
	} else {
		errs = append(errs, fmt.Errorf("disk usage: %w", err))
	}
	if err := r.store.close(); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		res.Error = strings.ReplaceAll(err.Error(), "\n", "; ")
		return res, err
	}
	return res, nil
}

// runAll runs the writers, readers, retention and sampler until the
// writers are done or one fails, and fills res with what they did.
func (r *runner) runAll(res *Result, span *harness.Span) []error {
	cfg := r.cfg
	var (
		wg, side sync.WaitGroup
		mu       sync.Mutex
		errs     []error
	)
	fail := func(err error) {
		mu.Lock()
		errs = append(errs, err)
		mu.Unlock()
		r.halt()
	}
	for i := range cfg.Writers {
		r.writers = append(r.writers, &writer{r: r, id: i, hist: newTimed(), serve: newTimed()})
	}
	for i := range cfg.Readers {
		r.readers = append(r.readers, newReader(r, i))
	}
	// The schedule starts once the goroutines are running, so that the
	// first batches are not late for want of a goroutine.
	r.start = time.Now().Add(10 * time.Millisecond)
	r.deadline = r.start.Add(cfg.Duration + max(cfg.Duration/2, 5*time.Second))
	s := newSampler(r)
	rt := &retainer{r: r, hist: measure.NewHistogram(), buf: make([]byte, 48)}
	for _, w := range r.writers {
		wg.Go(func() {
			if err := w.run(); err != nil {
				fail(err)
			}
		})
	}
	for _, rd := range r.readers {
		side.Go(func() {
			if err := rd.run(); err != nil {
				fail(err)
			}
		})
	}
	// Retention passes on the sampler's ticks, in a goroutine of its own
	// so that a long delete never holds up the watermark; the ticks of a
	// long pass make one more pass after it, not a backlog.
	retain := make(chan struct{}, 1)
	side.Go(func() {
		for {
			select {
			case <-r.stopped.Done():
				return
			case <-retain:
				if err := rt.pass(); err != nil {
					fail(err)
					return
				}
			}
		}
	})
	writersDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(writersDone)
	}()
	r.sample(s, writersDone, retain)
	// The last interval ends with the writers, before readers and
	// retention finish what they are doing.
	r.advance()
	s.roll(time.Now())
	r.halt()
	side.Wait()
	// Retention catches up with the last batches, so that the final
	// check sees the store as retention leaves it.
	r.advance()
	if len(errs) == 0 {
		if err := rt.pass(); err != nil {
			errs = append(errs, err)
		}
	}
	res.Intervals = s.out
	r.results(res, rt)
	return errs
}

// sample moves the watermark on every tick, asks retain for a pass and
// closes an interval every Config.Interval, until the writers are done,
// reporting progress in seconds: the run's one ticker beside its spans'.
func (r *runner) sample(s *sampler, writersDone <-chan struct{}, retain chan<- struct{}) {
	secs := int64(r.cfg.Duration.Round(time.Second) / time.Second)
	if p := r.cfg.Progress; p != nil {
		harness.InSeconds(p)
		p.Begin(fmt.Sprintf("Steady state, %s points/s, for %v (progress in seconds)", harness.Count(int64(r.cfg.Rate)), r.cfg.Duration), secs)
		defer p.End()
	}
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-writersDone:
			return
		case <-r.stopped.Done():
			<-writersDone
			return
		case now := <-t.C:
			r.advance()
			select {
			case retain <- struct{}{}:
			default:
			}
			if r.cfg.Warmup > 0 && r.warmAt.IsZero() && now.Sub(r.start) >= r.cfg.Warmup {
				// An interval ends with the warm-up, so that none
				// straddles it.
				s.roll(now)
				r.endWarmup(now)
			}
			if now.Sub(s.begin) >= r.cfg.Interval {
				s.roll(now)
				if p := r.cfg.Progress; p != nil {
					p.Update(min(secs, int64(now.Sub(r.start)/time.Second)))
				}
			}
		}
	}
}

// endWarmup ends the warm-up at now: the latencies so far become its.
func (r *runner) endWarmup(now time.Time) {
	r.warmAt, r.warmPoints = now, r.points.Load()
	for _, w := range r.writers {
		w.hist.split()
		w.serve.split()
	}
	for _, rd := range r.readers {
		for k := range rd.hist {
			rd.hist[k].split()
		}
	}
}

// results fills res with the figures of the whole run, and of its
// warm-up apart.
func (r *runner) results(res *Result, rt *retainer) {
	for _, w := range r.writers {
		w.hist.take(measure.NewHistogram())
		w.serve.take(measure.NewHistogram())
	}
	for _, rd := range r.readers {
		for k := range rd.hist {
			rd.hist[k].take(measure.NewHistogram())
		}
	}
	res.Written = r.points.Load()
	res.Unsent = res.Scheduled - res.Written
	since, written := r.start, res.Written
	if r.cfg.Warmup > 0 {
		if r.warmAt.IsZero() { // the run stopped in its warm-up
			r.endWarmup(time.Now())
		}
		w := &Warmup{Elapsed: r.warmAt.Sub(r.start), Written: r.warmPoints}
		if secs := w.Elapsed.Seconds(); secs > 0 {
			w.PointsPerSec = float64(w.Written) / secs
		}
		l := r.latencies(func(t *timed) *measure.Histogram { return t.warm }, w.Elapsed.Seconds(), false)
		w.Write, w.Commit, w.WriteDetail, w.CommitDetail, w.Queries, w.Query = l.write, l.commit, l.writeDetail, l.commitDetail, l.queries, l.query
		res.Warmup = w
		since, written = r.warmAt, res.Written-r.warmPoints
	}
	secs := time.Since(since).Seconds()
	if secs > 0 {
		res.PointsPerSec = float64(written) / secs
	}
	l := r.latencies(func(t *timed) *measure.Histogram { return t.total }, secs, true)
	res.Write, res.Commit, res.WriteDetail, res.CommitDetail, res.Queries, res.Query = l.write, l.commit, l.writeDetail, l.commitDetail, l.queries, l.query
	res.Retention = rt.result()
	res.SeriesIDs = r.m.series
	if r.m.churnPer > 0 && r.rounds > 0 {
		res.SeriesIDs += (r.rounds - 1) / r.m.churnEvery * r.m.churnPer
	}
	res.summarize()
}

// latencies are the latency figures of a part of the run (the warm-up,
// or what followed), as Result has them.
type latencies struct {
	write, commit             *measure.Percentiles
	writeDetail, commitDetail measure.Detail
	queries                   []Query
	query                     *measure.Percentiles
}

// latencies gathers the latencies of a part of the run, of secs of wall
// time, from the histogram of picks from each timed; with verify, the
// queries' verification of the whole run too.
func (r *runner) latencies(of func(*timed) *measure.Histogram, secs float64, verify bool) latencies {
	var l latencies
	detail := func(h *measure.Histogram) measure.Detail {
		d, err := h.Detail(r.cfg.Percentiles, r.cfg.Distributions)
		if err != nil {
			fmt.Fprintf(r.log, "steady: no latency distribution: %v\n", err)
		}
		return d
	}
	write, serve := measure.NewHistogram(), measure.NewHistogram()
	for _, w := range r.writers {
		write.Merge(of(&w.hist))
		serve.Merge(of(&w.serve))
	}
	if p := write.Percentiles(); p.Count > 0 {
		l.write, l.writeDetail = &p, detail(write)
	}
	if p := serve.Percentiles(); p.Count > 0 {
		l.commit, l.commitDetail = &p, detail(serve)
	}
	if len(r.readers) == 0 {
		return l
	}
	all := measure.NewHistogram()
	for k, kind := range querymix.QueryKinds {
		if r.cfg.Mix.Weight(kind) == 0 {
			continue
		}
		q := Query{Kind: kind}
		h := measure.NewHistogram()
		for _, rd := range r.readers {
			h.Merge(of(&rd.hist[k]))
			if verify {
				q.Verify.Add(&rd.verify[k])
			}
		}
		all.Merge(h)
		p := h.Percentiles()
		q.Count, q.Latency, q.Detail = p.Count, &p, detail(h)
		if secs > 0 {
			q.PerSec = float64(q.Count) / secs
		}
		l.queries = append(l.queries, q)
	}
	p := all.Percentiles()
	l.query = &p
	return l
}

// finalCheck reads everything the store holds once writers, readers and
// retention have stopped, and expects exactly the committed points that
// did not expire. With MethodTTL, where expiry goes on meanwhile, it
// expects every committed point the engine must keep when the check
// ends, and sets ret's cutoff, expired and lingering points to what it
// found.
func (r *runner) finalCheck(ret *Retention) *harness.Verification {
	m := r.m
	v := &harness.Verification{}
	done := r.gone(r.doneCut.Load())
	// ok counts the points read whole by their batch: with MethodTTL
	// the first batch that must be there is known only once the store
	// has been read.
	ok := make([]int32, r.batches)
	var chunk scanbuf.Chunk
	check := func(key, val []byte) {
		v.Read++
		series, ts, seq, err := m.layout.ParseKey(key)
		if err != nil || ts < points.Epoch || (ts-points.Epoch)%m.step != 0 {
			v.Wrong++
			v.Note("key %x is not a point's", key)
			return
		}
		rnd, j := int64((ts-points.Epoch)/m.step), int64(series)%m.series
		i := rnd*m.series + j
		switch life, dead := m.life(series); {
		case rnd < life || rnd >= dead || i >= r.batches*m.batch || (!m.layout.BucketMajor() && seq != uint64(i)+1):
			v.Wrong++
			v.Note("series %d, round %d: not a point of the run", series, rnd)
			return
		case !r.isDone(i / m.batch):
			v.Wrong++
			v.Note("series %d, round %d: its batch %d was never committed", series, rnd, i/m.batch)
			return
		case ts < done:
			v.Expired++
			v.Note("series %d, round %d: expired, retention deleted everything before round %d", series, rnd, m.roundAt(done))
			return
		}
		if bad := m.values.CheckValue(uint64(i)+1, val); bad != "" {
			v.Wrong++
			v.Note("series %d, round %d: %s", series, rnd, bad)
			return
		}
		ok[i/m.batch]++
	}
	r.store.engines(func(n uint64, db engine.Engine) {
		it, err := db.NewIterator(engine.IterOptions{})
		if err == nil {
			for more := it.First(); more; more = it.Next() {
				chunk.Add(it.Key(), it.Value())
				if chunk.Len() == scanbuf.ChunkEntries {
					for k, val := range chunk.All() {
						check(k, val)
					}
					chunk.Reset()
				}
			}
			err = it.Err()
			if cerr := it.Close(); err == nil {
				err = cerr
			}
		}
		for k, val := range chunk.All() {
			check(k, val)
		}
		chunk.Reset()
		if err != nil {
			v.Note("shard %d: %v", n, err)
			v.Wrong++
		}
	})
	cut := m.roundAt(done) * m.series // the first point not expired
	if r.expiry > 0 {
		kept := r.kept(time.Now())
		cut = kept * m.batch
		ret.Cutoff = time.Duration(m.ts((cut+m.series-1)/m.series) - points.Epoch)
		ret.Expired = cut
	}
	var want, found int64
	for b := range r.batches {
		if r.isDone(b) {
			want += max(0, (b+1)*m.batch-max(cut, b*m.batch))
		}
		// No point read whole lies before cut, but with MethodTTL:
		// there, the points the engine has not dropped yet.
		if b < cut/m.batch {
			ret.Lingering += int64(ok[b])
		} else {
			found += int64(ok[b])
		}
	}
	if found < want {
		v.Missing += want - found
		v.Note("%d of the %d committed points not expired were not found", want-found, want)
	}
	return v
}
