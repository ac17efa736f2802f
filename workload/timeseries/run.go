package timeseries

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/scanbuf"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/points"
)

// Run runs the six steps on db, whose files live in dir, and returns what
// each cost. The steps, with N = cfg.Points and H = N/2 rounded down:
//
//  1. write: points 0..N-1 in batches of cfg.Batch, one Commit each.
//  2. query: every series with its own bounded iterator (with
//     cfg.ReuseIterator, one iterator given each series' bounds),
//     ascending; every key and value is checked against the generator.
//  3. delete: the H oldest points, by one DeleteRange per series over
//     timestamps before that of point H (a retention cut-off).
//  4. compact: Compact(nil, nil).
//  5. query_after_delete: points H..N-1, checked like step 2.
//  6. write_more: points N..N+H-1, later in time and sequence.
//
// With cfg.Preloaded the store already holds step 1's points (a reused
// dataset) and Run starts at step 2; cfg.AfterWrite runs once step 1 has
// passed, unmeasured.
//
// A verification failure is recorded in its step and in Result.Error and
// the run goes on; an engine error ends the run after recording its step,
// and so does cfg.Stop, recording in the step how far it got (not in
// Result.Error: a stopped run did not fail). The returned error is nil
// only if every step ran and passed; it wraps ErrVerification, the
// engine's error or ErrStopped. Run returns a nil Result only for
// an invalid cfg (ErrInvalidConfig).
func Run(db engine.Engine, dir string, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	values, file, err := load(cfg.Values)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidConfig, err)
	}
	r := &runner{
		file:   file,
		db:     db,
		dir:    dir,
		cfg:    cfg,
		gen:    points.Generator{Series: cfg.Series, Seed: cfg.Seed, Values: values},
		hist:   measure.NewHistogram(),
		log:    cfg.Log,
		bounds: make([]byte, 4*tskey.KeySize),
	}
	if r.log == nil {
		r.log = io.Discard
	}
	r.warnings = harness.Warnings{Log: r.log, Prefix: "workload", Part: "step"}
	n, h, d := cfg.Points, cfg.Points/2, cfg.deleted()
	res := &Result{Config: cfg}
	steps := []struct {
		name   string
		points int64
		body   func(*stepRun) error
		after  func() error
	}{
		{StepWrite, n, r.write(0, n), r.spotCheck(0, n)},
		{StepQuery, n, r.query(0, n), nil},
		{StepDelete, d, r.delete(h), nil},
		{StepCompact, n - d, r.compact, nil},
		{StepQueryAfterDelete, n - d, r.query(h, n), nil},
		{StepWriteMore, h, r.write(n, n+h), r.spotCheck(n, n+h)},
	}
	if cfg.Preloaded {
		steps = steps[1:]
	}
	var errs []error
	var stop error
	var live int64 // the points the store holds
	if cfg.Preloaded {
		live = n
	}
	for _, s := range steps {
		if r.stopped() {
			// Stopped in a step that cannot stop (compaction): no
			// step of no points follows it.
			stop = fmt.Errorf("%w before %s", ErrStopped, s.name)
			break
		}
		cold := cfg.Cold && (s.name == StepQuery || s.name == StepQueryAfterDelete)
		if cold {
			if err := harness.DropPageCache(r.dir); err != nil {
				errs = append(errs, fmt.Errorf("before %s: %w", s.name, err))
				break
			}
		}
		st, fatal, err := r.step(s.name, Label(s.name, cfg), s.points, s.body)
		st.Cold = cold
		if s.after != nil && fatal == nil {
			if aerr := s.after(); aerr != nil {
				st.Error = strings.TrimPrefix(st.Error+"; "+oneLine(aerr), "; ")
				err = errors.Join(err, aerr)
			}
		}
		if s.name == StepWrite && err == nil && fatal == nil && cfg.AfterWrite != nil {
			if aerr := cfg.AfterWrite(); aerr != nil {
				errs = append(errs, fmt.Errorf("after the write step: %w", aerr))
			}
		}
		switch s.name {
		case StepWrite, StepWriteMore:
			live += st.Points
		case StepDelete:
			live -= st.Points
		}
		st.LivePoints = live
		if live > 0 {
			st.BytesPerPoint = float64(st.Disk.Used) / float64(live)
		}
		res.Steps = append(res.Steps, st)
		if cfg.StepDone != nil {
			cfg.StepDone(res)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", s.name, err))
		}
		if fatal != nil {
			if errors.Is(fatal, ErrStopped) {
				stop = fmt.Errorf("%s: %w", s.name, fatal)
			}
			break
		}
	}
	if len(errs) == 0 {
		return res, stop
	}
	err = errors.Join(errs...)
	res.Error = oneLine(err)
	return res, errors.Join(err, stop)
}

// stopped reports whether Config.Stop asks the run to end now.
func (r *runner) stopped() bool {
	select {
	case <-r.cfg.Stop:
		return true
	default:
		return false
	}
}

// oneLine formats err, joining the lines errors.Join puts between errors.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// Label is the report's name for a step of cfg, in the words of the 2014
// table: "Write 100M values", "Compaction", ...
func Label(name string, cfg Config) string {
	n, h, d := cfg.Points, cfg.Points/2, cfg.deleted()
	switch name {
	case StepWrite:
		return "Write " + harness.Count(n) + " values"
	case StepQuery:
		return "Query " + harness.Count(n) + " values"
	case StepDelete:
		return "Delete " + harness.Count(d) + " values"
	case StepCompact:
		return "Compaction"
	case StepQueryAfterDelete:
		return "Query " + harness.Count(n-d) + " values"
	case StepWriteMore:
		return "Write " + harness.Count(h) + " values"
	}
	return name
}

type runner struct {
	db     engine.Engine
	dir    string
	cfg    Config
	gen    points.Generator
	file   *points.File // an imported file's points in place of gen's (imported.go)
	hist   *measure.Histogram
	log    io.Writer
	batch  points.Batch
	chunk  scanbuf.Chunk
	bounds []byte          // two series' bounds (see scan)
	it     engine.Iterator // with Config.ReuseIterator, the query step's iterator
	// warnings says once per kind what this machine could not measure.
	warnings harness.Warnings
}

// stepRun is what a step body reports while it runs.
type stepRun struct {
	done    atomic.Int64 // points handled, read by the span's sampler
	time    time.Duration
	hist    *measure.Histogram
	timed   bool // whether hist holds one entry per operation
	logical int64
	verify  *harness.Verification
	tl      *timeline // nil without over-time figures
}

// timed adds one timed engine operation.
func (s *stepRun) add(d time.Duration) {
	s.time += d
	s.hist.Record(d)
	s.timed = true
	if s.tl != nil {
		s.tl.record(d)
	}
}

// spend adds engine time that is no operation of the step's latency
// distribution: compaction's one call, closing the one reused iterator.
func (s *stepRun) spend(d time.Duration) {
	s.time += d
	if s.tl != nil {
		s.tl.spend(d)
	}
}

// step runs body and measures it. fatal is an engine error or a stop
// (ErrStopped) that ends the run; err is the step's failure (an engine
// error or a verification failure; a stop is none).
func (r *runner) step(name, label string, points int64, body func(*stepRun) error) (st Step, fatal, err error) {
	st = Step{Name: name, Label: label, Points: points}
	run := &stepRun{hist: r.hist}
	r.hist.Reset()
	switch name {
	case StepDelete:
		run.logical = r.gen.LogicalBytes(0, points)
		if r.file != nil {
			run.logical = r.file.LogicalBytes(true)
		}
	case StepCompact:
		run.logical = r.gen.LogicalBytes(r.cfg.Points/2, r.cfg.Points)
		if r.file != nil {
			run.logical = r.file.LogicalBytes(false) - r.file.LogicalBytes(true)
		}
	}
	metrics := r.readMetrics(name)
	counted := points
	if name == StepCompact {
		counted = 0 // it counts no points as it goes: no rate, no ETA
	}
	if length := r.cfg.interval(); length > 0 {
		var read func() engine.Metrics
		if len(metrics) > 0 {
			read = func() engine.Metrics { m, _ := engine.ReadMetrics(r.db); return m }
		}
		run.tl = newTimeline(time.Now(), length, read)
	}
	// The span's one sampler closes over-time intervals, counts open
	// files and reports progress, beside its memory samples.
	var peakFDs int
	span, err := harness.StartWatchedSpan(harness.Watch{
		Progress: r.cfg.Progress, Label: label, Total: counted, Done: run.done.Load,
		Tick: func(now time.Time) {
			if run.tl != nil && run.tl.due(now) {
				run.tl.roll(now, run.done.Load())
			}
			if n, err := measure.OpenFDs(); err == nil {
				peakFDs = max(peakFDs, n)
			}
		},
	}, harness.EnginePIDs(r.db)...)
	if err != nil {
		st.Error = err.Error()
		return st, err, err
	}
	fatal = body(run)
	if stopped := errors.Is(fatal, ErrStopped); stopped || fatal != nil && name != StepCompact {
		// Stopped, or failed: the figures are of the points handled
		// (a delete's logical bytes were of all it would have deleted),
		// not of the points the step was to handle.
		done := run.done.Load()
		if stopped {
			fatal = fmt.Errorf("%w after %s of %s points", ErrStopped, harness.Count(done), harness.Count(points))
		}
		st.Points, points = done, done
		if name == StepDelete {
			run.logical = 0
		}
	}
	st.Wall = span.Elapsed()
	span.StopWatch()
	st.OpenFDs = peakFDs
	if run.tl != nil {
		st.Intervals = run.tl.end(time.Now(), min(counted, run.done.Load()))
	}
	if r.cfg.Settle {
		st.Settle, st.SettleTimedOut = r.settle()
		if st.SettleTimedOut {
			fmt.Fprintf(r.log, "workload: %s: engine still busy after %v; sizes may still change\n", name, r.cfg.settleTimeout())
		}
	}
	wall := st.Wall // the step's, before Settle
	st.Cost = span.End(r.warnings.Missing)
	st.Wall = wall
	if metrics != nil {
		st.EngineMetrics = r.readMetrics(name).Since(metrics)
	}
	if fds, err := measure.OpenFDs(); err == nil {
		st.OpenFDs = max(st.OpenFDs, fds)
	}
	st.Time = run.time
	if points > 0 && st.Time > 0 && name != StepCompact {
		st.PointsPerSec = float64(points) / st.Time.Seconds()
		st.MicrosPerPoint = st.Time.Seconds() * 1e6 / float64(points)
	}
	st.LogicalBytes = run.logical
	if st.IO != nil && st.LogicalBytes > 0 && name != StepQuery && name != StepQueryAfterDelete {
		st.WriteAmp = float64(st.IO.WriteBytes) / float64(st.LogicalBytes)
	}
	if run.timed {
		p := r.hist.Percentiles()
		st.Latency = &p
		d, err := r.hist.Detail(r.cfg.Percentiles, r.cfg.Distributions)
		st.Percentiles, st.Distribution = d.Percentiles, d.Distribution
		if err != nil {
			r.warnings.Warn("distribution", "%s: no latency distribution: %v", name, err)
		}
	}
	st.Verify = run.verify
	var errs []error
	if fatal != nil && !errors.Is(fatal, ErrStopped) {
		errs = append(errs, fatal)
	}
	if v := run.verify; v != nil && !v.OK() {
		errs = append(errs, fmt.Errorf("%w: %s", ErrVerification, v.Summary("points")))
	}
	usage, derr := diskusage.Measure(r.dir)
	if derr != nil {
		errs = append(errs, fmt.Errorf("disk usage: %w", derr))
	}
	st.Disk = usage
	if sz, ok := engine.BackendAs[engine.Sizer](r.db); ok && fatal == nil {
		if inUse, onDisk, err := sz.Sizes(); err == nil {
			st.EngineSize = &EngineSize{InUse: inUse, OnDisk: onDisk}
		} else {
			r.warnings.Warn("sizes", "%s: no engine sizes: %v", name, err)
		}
	}
	err = errors.Join(errs...)
	shown := err
	if errors.Is(fatal, ErrStopped) {
		shown = errors.Join(err, fatal)
	}
	if shown != nil {
		st.Error = oneLine(shown)
	}
	return st, fatal, err
}
