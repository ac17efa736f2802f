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
	file     *fileRun // the imported file's points, or nil: the model's
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

// front is the data time of the latest of points [0, n), n above 0 a
// watermark or top: their last round's, or an imported file's latest
// timestamp in their batches.
func (r *runner) front(n int64) uint64 {
	if r.file != nil {
		return r.file.front[n/r.m.batch-1]
	}
	return r.m.ts((n - 1) / r.m.series)
}

// expired is how many points lie before data time done: the rounds
// before it, or an imported file's batches wholly before it.
func (r *runner) expired(done uint64) int64 {
	if r.file != nil {
		return r.file.expired(done)
	}
	return r.m.roundAt(done) * r.m.series
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
	if cfg.Method != MethodShards && db == nil {
		return nil, fmt.Errorf("%w: no engine to run on", ErrInvalidConfig)
	}
	if db != nil {
		if err := checkOrder(db); err != nil {
			return nil, err
		}
	}
	batches := cfg.batches()
	var (
		values *points.Source
		file   *fileRun
		origin = points.Epoch
		err    error
	)
	if cfg.imported() {
		file, origin, err = openFile(cfg, batches)
	} else if values, err = cfg.Values.Load(); err != nil {
		err = fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	if err != nil {
		return nil, err
	}
	m := newModel(cfg, values)
	m.origin = origin
	r := &runner{cfg: cfg, m: m, file: file, dir: dir, log: cfg.Log}
	r.stopped, r.halt = context.WithCancel(context.Background())
	defer r.halt()
	if r.log == nil {
		r.log = io.Discard
	}
	r.batches = batches
	r.rounds = (r.batches*cfg.Batch + m.series - 1) / m.series
	r.maxDelay = max(1, int64(cfg.LateWindow/max(m.batchData(), 1)))
	r.done = make([]atomic.Uint64, (r.batches+63)/64)
	r.deleting.Store(m.origin)
	r.doneCut.Store(m.origin)
	r.store = &store{m: m, single: db, open: cfg.Open, dir: dir, shards: map[uint64]*shard{}}
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
	checked := false // the final check read the whole store
	if len(errs) == 0 {
		var err error
		res.Final, err = r.finalCheck(&res.Retention)
		checked = err == nil
		switch {
		case err != nil:
			errs = append(errs, err)
		case !res.Final.OK():
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
		if f := res.Final; checked && f.Read > 0 {
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
		w.hist.flush()
		w.serve.flush()
	}
	for _, rd := range r.readers {
		for k := range rd.hist {
			rd.hist[k].flush()
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
