package mixed

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
	"github.com/tsbench/storage/workload/querymix"
)

// kinds is how many operation kinds a worker counts: KindWrite at index
// 0, then querymix.QueryKinds.
const kinds = 6

// Run preloads db, whose files live in dir, with cfg.Points (unless
// cfg.Preloaded), then runs cfg.Writers writers and cfg.Readers readers
// side by side for cfg.Duration, checks every series against what the
// writers acknowledged, and returns what each kind of operation did and
// cost. An engine error stops the run; a verification failure is
// recorded and the run goes on. The returned error is nil only if
// everything passed; it wraps ErrVerification or the engine's error. Run
// returns a nil Result only for an invalid cfg (ErrInvalidConfig).
func Run(db engine.Engine, dir string, cfg Config) (*Result, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	r := &runner{
		db:       db,
		cfg:      cfg,
		picker:   querymix.NewPicker(cfg.Mix),
		chooser:  newChooser(cfg.Series, cfg.Skew),
		warnings: &harness.Warnings{Log: cfg.Log, Prefix: "mixed", Part: "part"},
	}
	if err := r.load(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	r.stopped, r.halt = context.WithCancel(context.Background())
	defer r.halt()
	res := &Result{Config: cfg}
	fail := func(err error) (*Result, error) {
		res.Error = oneLine(err)
		return res, err
	}
	switch {
	case cfg.Points > 0 && !cfg.Preloaded:
		pre, err := r.runPreload()
		res.Preload = pre
		if err != nil {
			return fail(err)
		}
		if cfg.AfterPreload != nil {
			if err := cfg.AfterPreload(); err != nil {
				return fail(err)
			}
		}
	case r.file != nil:
		if err := r.file.replay(cfg.Points); err != nil {
			return fail(err)
		}
	}
	for s := range r.ack {
		r.ack[s].Store(r.gen.Count(0, cfg.Points, int64(s)))
	}
	var errs []error
	if err := r.runMixed(res); err != nil {
		errs = append(errs, err)
	} else {
		res.Final = r.finalCheck()
		if !res.Final.OK() {
			errs = append(errs, fmt.Errorf("final check: %w: %s", ErrVerification, res.Final.Summary("points")))
		}
	}
	ops := res.Operations
	if res.Warmup != nil {
		ops = append(slices.Clone(res.Warmup.Operations), ops...)
	}
	for _, op := range ops {
		if v := op.Verify; v != nil && !v.OK() {
			errs = append(errs, fmt.Errorf("%s: %w: %s", op.Kind, ErrVerification, v.Summary("points")))
		}
	}
	u, err := diskusage.Measure(dir)
	if err != nil {
		errs = append(errs, fmt.Errorf("disk usage: %w", err))
	}
	res.Disk = u
	if f := res.Final; f != nil && f.Read > 0 {
		res.BytesPerPoint = float64(u.Used) / float64(f.Read)
	}
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	return res, nil
}

// load makes the points ready: an imported file's, or the values of
// generated ones, whose acknowledgements are counts.
func (r *runner) load() error {
	if r.cfg.Values.Kind == points.Imported {
		f, err := openImported(r.cfg.Values)
		r.file = f
		return err
	}
	values, err := r.cfg.Values.Load()
	r.gen = points.Generator{Series: r.cfg.Series, Seed: r.cfg.Seed, Values: values}
	r.ack = make([]atomic.Int64, r.cfg.Series)
	return err
}

// oneLine formats err on one line, joining errors.Join's lines.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", "; ") }

// runner is one Run.
type runner struct {
	db  engine.Engine
	cfg Config
	gen points.Generator
	// ack[s] is how many points of series s writers have acknowledged:
	// its points 0..ack[s]-1 are committed. Only s's writer stores it.
	// Nil for an imported file's points, whose acknowledgements file
	// keeps.
	ack     []atomic.Int64
	file    *imported
	picker  querymix.Picker
	chooser *chooser
	// stopped is done once the run stops: its time is up, or a worker
	// failed; halt stops it, as often as need be.
	stopped context.Context
	halt    context.CancelFunc
	// warnings says once per kind what this machine could not measure.
	warnings *harness.Warnings
	// warmedUp is set once a warm-up is over (Config.Warmup): an
	// operation started after it counts in the run's figures, apart from
	// those before.
	warmedUp atomic.Bool
}

// stopping reports whether the run has stopped.
func (r *runner) stopping() bool { return r.stopped.Err() != nil }

// worker is what one writer or reader goroutine counts, on its own so
// that none waits for another; the sampler reads only count.
type worker struct {
	count [kinds]atomic.Int64
	// figures are those of the part under way: the warm-up's until
	// pastWarmup moves them to warm.
	figures
	warm *figures
	// warmCount is count when the warm-up ended.
	warmCount [kinds]int64
}

// figures are what a worker measured of each kind in a part of the run.
type figures struct {
	hist   [kinds]*measure.Histogram
	points [kinds]int64
	verify [kinds]harness.Verification
}

// pastWarmup moves w's figures to the warm-up's once it is over, before
// w starts an operation: an operation counts where it started.
func (w *worker) pastWarmup(r *runner) {
	if w.warm != nil || !r.warmedUp.Load() {
		return
	}
	f := w.figures
	w.warm = &f
	w.points, w.verify = [kinds]int64{}, [kinds]harness.Verification{}
	for k := range kinds {
		if f.hist[k] != nil {
			w.hist[k] = measure.NewHistogram()
		}
		w.warmCount[k] = w.count[k].Load()
	}
}

// runPreload writes the preload and measures it.
func (r *runner) runPreload() (*Preload, error) {
	hist := measure.NewHistogram()
	var done atomic.Int64
	span, err := harness.StartWatchedSpan(harness.Watch{Progress: r.cfg.Progress, Label: fmt.Sprintf("Preload %s points", harness.Count(r.cfg.Points)), Total: r.cfg.Points, Done: done.Load},
		harness.EnginePIDs(r.db)...)
	if err != nil {
		return nil, err
	}
	spent, err := r.preload(hist, &done)
	span.StopWatch()
	p := &Preload{Points: done.Load(), Time: spent, Cost: span.End(r.warnings.Missing)}
	if spent > 0 {
		p.PointsPerSec = float64(p.Points) / spent.Seconds()
	}
	l := hist.Percentiles()
	p.Latency = &l
	return p, err
}

// runMixed runs the writers and readers for the duration, sampling
// their counts every second, and fills res with what they did. Its error
// is the first engine error, which stopped the run.
func (r *runner) runMixed(res *Result) error {
	cfg := r.cfg
	var workers []*worker
	newWorker := func(used func(int) bool) *worker {
		w := &worker{}
		for k := range kinds {
			if used(k) {
				w.hist[k] = measure.NewHistogram()
			}
		}
		workers = append(workers, w)
		return w
	}
	var (
		wg       sync.WaitGroup
		errOnce  sync.Once
		firstErr error
	)
	run := func(f func() error) {
		wg.Go(func() {
			if err := f(); err != nil {
				errOnce.Do(func() { firstErr = err })
				r.halt()
			}
		})
	}
	metrics := r.readMetrics()
	writers, readers := make([]*worker, cfg.Writers), make([]*worker, cfg.Readers)
	for i := range writers {
		writers[i] = newWorker(func(k int) bool { return k == 0 })
	}
	for i := range readers {
		readers[i] = newWorker(func(k int) bool { return k > 0 && cfg.Mix.Weight(querymix.QueryKinds[k-1]) > 0 })
	}
	// The span's sampler takes the per-second counts and shows the
	// seconds done: one goroutine samples the whole part.
	secs := int64(cfg.Duration.Round(time.Second) / time.Second)
	begun := time.Now()
	perSecond := &sampler{workers: workers, taken: begun, next: begun.Add(time.Second)}
	if cfg.Warmup > 0 {
		perSecond.warmEnd, perSecond.warmedUp = begun.Add(cfg.Warmup), &r.warmedUp
	}
	if cfg.Progress != nil {
		harness.InSeconds(cfg.Progress)
	}
	span, err := harness.StartWatchedSpan(harness.Watch{
		Progress: cfg.Progress,
		Label:    fmt.Sprintf("Mixed, %s and %s, for %v (progress in seconds)", plural(cfg.Writers, "writer"), plural(cfg.Readers, "reader"), cfg.Duration),
		Total:    secs,
		Done:     func() int64 { return min(secs, int64(time.Since(begun)/time.Second)) },
		Tick:     perSecond.tick,
	}, harness.EnginePIDs(r.db)...)
	if err != nil {
		return err
	}
	for i, w := range writers {
		lo, hi := int64(i)*cfg.Series/int64(cfg.Writers), int64(i+1)*cfg.Series/int64(cfg.Writers)
		run(func() error { return r.writer(w, lo, hi) })
	}
	for i, w := range readers {
		run(func() error { return r.reader(w, i) })
	}
	end := time.NewTimer(time.Until(begun.Add(cfg.Duration)))
	select {
	case <-end.C:
	case <-r.stopped.Done():
	}
	end.Stop()
	r.halt()
	span.StopWatch()
	wg.Wait()
	res.Elapsed = span.Elapsed()
	perSecond.take() // what ran since the last whole second
	res.Cost = span.End(r.warnings.Missing)
	if metrics != nil {
		res.EngineMetrics = r.readMetrics().Since(metrics)
	}
	if cfg.Warmup > 0 {
		// A run stopped in its warm-up has nothing but the warm-up.
		warm := &Warmup{Elapsed: res.Elapsed}
		counts, final := perSecond.counts, perSecond.final
		if !perSecond.split.IsZero() {
			warm.Elapsed = perSecond.split.Sub(begun)
			counts, final = perSecond.warm, perSecond.warmFinal
		}
		res.Elapsed -= warm.Elapsed
		warm.Operations = r.operations(workers, true, counts, final, warm.Elapsed)
		res.Warmup = warm
		if perSecond.split.IsZero() {
			return firstErr
		}
	}
	res.Operations = r.operations(workers, false, perSecond.counts, perSecond.final, res.Elapsed)
	return firstErr
}

// operations sums the workers' figures per kind, of the warm-up or of
// the run after it, whose per-second counts are counts, the last of them
// spanning final: writes when there were writers, and each query kind of
// the mix when there were readers.
func (r *runner) operations(workers []*worker, warmup bool, counts [kinds][]int64, final, elapsed time.Duration) []Operation {
	var ops []Operation
	for k := range kinds {
		hist := measure.NewHistogram()
		op := Operation{Kind: KindWrite, LatencyOf: "batch"}
		if k > 0 {
			op = Operation{Kind: querymix.QueryKinds[k-1], LatencyOf: "query", Verify: &harness.Verification{}}
		}
		op.PerSecond, op.PerSecondStats = counts[k], perSecondStats(counts[k], final)
		used := false
		for _, w := range workers {
			w.pastWarmup(r) // one that started nothing since the warm-up
			f, n := &w.figures, w.count[k].Load()-w.warmCount[k]
			if warmup {
				f, n = w.warm, w.warmCount[k]
				if f == nil { // the run stopped in its warm-up
					f, n = &w.figures, w.count[k].Load()
				}
			}
			if f.hist[k] == nil {
				continue
			}
			used = true
			hist.Merge(f.hist[k])
			op.Count += n
			op.Points += f.points[k]
			if op.Verify != nil {
				op.Verify.Add(&f.verify[k])
			}
		}
		if !used {
			continue
		}
		if k == 0 {
			op.Points = op.Count
		}
		if elapsed > 0 {
			op.OpsPerSec = float64(op.Count) / elapsed.Seconds()
		}
		p := hist.Percentiles()
		op.Latency = &p
		d, err := hist.Detail(r.cfg.Percentiles, r.cfg.Distributions)
		if err != nil {
			r.warnings.Warn("distribution", "%s: no latency distribution: %v", op.Kind, err)
		}
		op.Detail = d
		ops = append(ops, op)
	}
	return ops
}

// sampler counts each kind's operations per second of the run, and ends
// the warm-up: the seconds after it count apart.
type sampler struct {
	workers []*worker
	last    [kinds]int64
	counts  [kinds][]int64
	taken   time.Time     // when the last take was, the start at first
	next    time.Time     // when the next take is due
	final   time.Duration // what the last take spanned
	// warmEnd is when the warm-up is due to end, zero for none; split
	// when it did, zero until then, after which warm and warmFinal hold
	// its counts and counts the run's. warmedUp is set then.
	warmEnd, split time.Time
	warm           [kinds][]int64
	warmFinal      time.Duration
	warmedUp       *atomic.Bool
}

// tick takes a sample when a second has passed since the last one due:
// the span's sampler ticks every harness.ProgressPeriod from the start,
// so a take comes on time, and half a period early counts as due. The
// warm-up ends on the tick due at its end, the seconds restarting there.
func (s *sampler) tick(now time.Time) {
	if !s.warmEnd.IsZero() && s.split.IsZero() && !now.Before(s.warmEnd.Add(-harness.ProgressPeriod/2)) {
		s.take()
		s.warm, s.warmFinal, s.counts = s.counts, s.final, [kinds][]int64{}
		s.split, s.next = s.taken, s.taken.Add(time.Second)
		s.warmedUp.Store(true)
		return
	}
	if now.Before(s.next.Add(-harness.ProgressPeriod / 2)) {
		return
	}
	s.take()
	s.next = s.next.Add(time.Second)
}

// take appends what each kind did since the last take.
func (s *sampler) take() {
	now := time.Now()
	s.final, s.taken = now.Sub(s.taken), now
	for k := range kinds {
		var n int64
		for _, w := range s.workers {
			n += w.count[k].Load()
		}
		s.counts[k] = append(s.counts[k], n-s.last[k])
		s.last[k] = n
	}
}

// finalCheck reads every series whole once writers and readers have
// stopped and expects exactly the acknowledged points: none lost, none
// more.
func (r *runner) finalCheck() *harness.Verification {
	v := &harness.Verification{}
	var chunk scanbuf.Chunk
	var fc fileCheck
	lo, hi := make([]byte, tskey.KeySize), make([]byte, tskey.KeySize)
	for s := range r.cfg.Series {
		var c checker
		if r.file != nil {
			fc = r.file.checkRead(r.file.acked(s), 0, 0)
			c = checker{v: v, series: s, strict: true, file: &fc}
		} else {
			c = checker{gen: r.gen, v: v, series: s, acked: r.ack[s].Load(), strict: true}
		}
		tskey.PutKey(lo, uint64(s), 0, 0)
		tskey.PutKey(hi, uint64(s)+1, 0, 0)
		it, err := r.db.NewIterator(engine.IterOptions{LowerBound: lo, UpperBound: hi})
		if err == nil {
			for ok := it.First(); ok; ok = it.Next() {
				chunk.Add(it.Key(), it.Value())
				if chunk.Len() == scanbuf.ChunkEntries {
					checkChunk(&chunk, &c)
				}
			}
			err = it.Close()
		}
		checkChunk(&chunk, &c)
		c.finish()
		if err != nil && v.First == "" {
			v.First = fmt.Sprintf("series %d: %v", s, err)
			v.Missing += c.acked - c.next
		}
	}
	return v
}

// readMetrics reads the engine's metrics; nil, with a warning once, if
// it cannot.
func (r *runner) readMetrics() engine.Metrics {
	m, err := engine.ReadMetrics(r.db)
	if err != nil {
		r.warnings.Missing("engine metric", err)
		return nil
	}
	return m
}
