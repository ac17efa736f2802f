package micro

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// Run runs cfg's benchmarks in order on the engine open opens in dir (an
// empty or new directory), each with its default count, and returns what
// each measured. A failed benchmark is recorded and the next one runs:
// a fill starts from a new store, and a read after a failed write reloads
// it. The returned error joins every failure (nil if none); Run returns a
// nil Result only for an invalid cfg or dir (ErrInvalidConfig).
func Run(open Opener, dir string, cfg Config) (*Result, error) {
	s, err := NewSession(open, dir, cfg)
	if err != nil {
		return nil, err
	}
	res := &Result{Config: s.cfg}
	var errs []error
	for _, name := range s.cfg.Benchmarks {
		b, err := s.Run(name, 0)
		res.Benchmarks = append(res.Benchmarks, b)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
		}
	}
	if err := s.Close(); err != nil {
		errs = append(errs, fmt.Errorf("close: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		res.Error = oneLine(err)
		return res, err
	}
	return res, nil
}

// oneLine formats err on one line, joining errors.Join's lines.
func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// Run runs benchmark name for n operations and measures it; n <= 0 means
// its default count: Num for most fills (fewer for fillsync and
// fill100K), and every entry the store holds for the others. With a
// larger n, overwrites, deletes and reads go round the entries again.
//
// A fill starts from an empty store (made by Prepare, or here, untimed).
// Any other benchmark on a store no fill has loaded first loads it with
// write, untimed, and says so in Bench.Setup. After a benchmark that
// writes or deletes, the engine is closed, the store measured, and the
// engine reopened. With Config.Cold a read first drops the store's files
// from the page cache, untimed, and says so in Bench.Cold.
//
// The error is an engine failure or ErrVerification; Bench.Error holds it
// too. Run does not stop the session: the next benchmark may run.
func (s *Session) Run(name string, n int64) (Bench, error) {
	b := lookup(name)
	if b == nil {
		return Bench{Name: name, Error: unknown(name).Error()}, unknown(name)
	}
	bench := Bench{Name: name, KeySize: s.cfg.KeyType.Size()}
	fail := func(err error) (Bench, error) {
		bench.Error = oneLine(err)
		return bench, err
	}
	prepared := s.prepared == name
	s.prepared = ""
	switch {
	case b.kind == kindFill:
		if !prepared || s.db == nil {
			if err := s.fresh(b.sync); err != nil {
				return fail(err)
			}
		}
	case s.st.loaded == 0:
		if err := s.load(); err != nil {
			return fail(err)
		}
		bench.Setup = fmt.Sprintf("no fill had loaded the store: %s loaded %s entries first, untimed", Write, harness.Count(s.st.loaded))
	case s.st.partial && (b.kind == kindGet || b.kind == kindScan):
		return fail(ErrUnverifiable)
	default:
		if err := s.ensureOpen(); err != nil {
			return fail(err)
		}
	}
	if n := engine.OrderPrefix(s.db); b.kind == kindScan && n > 0 {
		// A scan reads every key in order, which the engine has only
		// within prefixes of n bytes (Cassandra's partitions).
		bench.Setup = fmt.Sprintf("not supported: ordered within prefix (of %d bytes)", n)
		return bench, nil
	}
	bench.ValueSize = s.st.valueSize
	if b.kind == kindFill {
		bench.ValueSize = b.valueSize(s.cfg)
	}
	var body func(*benchRun) error
	switch b.kind {
	case kindFill:
		if n <= 0 {
			n = b.fillCount(s.cfg.Num)
		}
		body = s.fill(b, n)
	case kindOverwrite:
		n = s.defaultOps(n)
		body = s.overwrite(n)
	case kindDelete:
		n = s.defaultOps(n)
		body = s.delete(n)
	case kindGet:
		n = s.defaultOps(n)
		body = s.get(b, n)
	case kindScan:
		if s.st.deleted && n > 0 {
			return fail(fmt.Errorf("%w: %s of %d entries on a store whose entries were all deleted: run a fill first", ErrInvalidConfig, name, n))
		}
		if n <= 0 {
			n = s.present()
		}
		body = s.scan(b, n)
	}
	if s.cfg.Cold && (b.kind == kindGet || b.kind == kindScan) {
		if err := harness.DropPageCache(s.dir); err != nil {
			return fail(fmt.Errorf("dropping the page cache: %w", err))
		}
		bench.Cold = true
	}
	err := s.measure(&bench, b, n, body)
	if err != nil {
		bench.Error = oneLine(err)
	}
	return bench, err
}

// defaultOps is n, or the number of entries of the last fill if n <= 0.
func (s *Session) defaultOps(n int64) int64 {
	if n <= 0 {
		return s.st.loaded
	}
	return n
}

// present is how many entries the store holds.
func (s *Session) present() int64 {
	if s.st.deleted {
		return 0
	}
	return s.st.loaded - s.st.removed
}

// benchRun is what a benchmark body reports while it runs.
type benchRun struct {
	done      atomic.Int64 // operations done, read by the progress ticker
	time      time.Duration
	hist      *measure.Histogram
	timed     bool
	latencyOf string
	bytes     int64
	verify    *harness.Verification
}

// add adds one timed engine operation (or batch, or chunk).
func (r *benchRun) add(d time.Duration) {
	r.time += d
	r.hist.Record(d)
	r.timed = true
}

// measure runs body and fills bench with what it cost. A benchmark that
// writes is followed by closing the engine, measuring the store,
// reopening it and measuring it again; the close is charged to CPU and
// I/O but not to Time, and the reopen to nothing.
func (s *Session) measure(bench *Bench, b *benchmark, n int64, body func(*benchRun) error) error {
	run := &benchRun{hist: s.hist, latencyOf: "op"}
	s.hist.Reset()
	writes := b.kind == kindFill || b.kind == kindOverwrite || b.kind == kindDelete
	span, err := harness.StartWatchedSpan(harness.Watch{Progress: s.cfg.Progress, Label: fmt.Sprintf("%s %s", b.Name, harness.Count(n)), Total: n, Done: run.done.Load},
		harness.EnginePIDs(s.db)...)
	if err != nil {
		return err
	}
	var errs []error
	if err := body(run); err != nil {
		errs = append(errs, err)
		if writes {
			s.st = state{} // what the store holds is unknown
		}
	}
	bench.Wall = span.Elapsed()
	span.StopWatch()
	if writes {
		if err := s.closeDB(); err != nil {
			errs = append(errs, fmt.Errorf("close: %w", err))
			s.st = state{}
		}
	}
	wall := bench.Wall // before the close
	bench.Cost = span.End(s.warnings.Missing)
	bench.Wall = wall
	if writes {
		if u, err := diskusage.Measure(s.dir); err != nil {
			errs = append(errs, fmt.Errorf("disk usage: %w", err))
		} else {
			st := NewStorage(u, s.present(), s.cfg.KeyType.Size(), s.st.valueSize)
			bench.Storage = &st
		}
		if err := s.openDB(false); err != nil {
			errs = append(errs, fmt.Errorf("reopen: %w", err))
		} else if u, err := diskusage.Measure(s.dir); err == nil && bench.Storage != nil {
			bench.Storage.Reopened = u
		}
	}
	bench.Ops = run.done.Load()
	bench.Time = run.time
	bench.Bytes = run.bytes
	if bench.Ops > 0 && bench.Time > 0 {
		sec := bench.Time.Seconds()
		bench.MicrosPerOp = sec * 1e6 / float64(bench.Ops)
		bench.OpsPerSec = float64(bench.Ops) / sec
		bench.MBPerSec = float64(bench.Bytes) / 1e6 / sec
	}
	if run.timed {
		p := s.hist.Percentiles()
		bench.Latency, bench.LatencyOf = &p, run.latencyOf
		if d, err := s.hist.Detail(s.cfg.Percentiles, false); err != nil {
			errs = append(errs, err)
		} else {
			bench.Percentiles = d.Percentiles
		}
	}
	if v := run.verify; v != nil {
		bench.Verify = v
		if !v.OK() {
			errs = append(errs, fmt.Errorf("%w: %s", ErrVerification, v.Summary("entries")))
		}
	}
	return errors.Join(errs...)
}
