package timeseries

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	_ "github.com/tsbench/storage/engine/pebble"
	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/workload/points"
)

// checkIntervals asserts that a step's intervals follow one another and
// add up to the step: its points (none for compaction) and every timed
// call.
func checkIntervals(t *testing.T, st Step) {
	t.Helper()
	if len(st.Intervals) == 0 {
		t.Errorf("%s: no intervals", st.Name)
		return
	}
	var points, calls int64
	var at, busy time.Duration
	for i, iv := range st.Intervals {
		if iv.Start != at || iv.Length <= 0 {
			t.Errorf("%s: interval %d starts at %v, length %v; want a start at %v", st.Name, i, iv.Start, iv.Length, at)
		}
		at += iv.Length
		points += iv.Points
		busy += iv.EngineTime
		if iv.Latency != nil {
			calls += iv.Latency.Count
		}
	}
	want := st.Points
	if st.Name == StepCompact {
		want = 0
	}
	var wantCalls int64
	if st.Latency != nil {
		wantCalls = st.Latency.Count
	}
	if points != want || calls != wantCalls || busy != st.Time {
		t.Errorf("%s: intervals hold %d points, %d calls, %v; the step %d, %d, %v", st.Name, points, calls, busy, want, wantCalls, st.Time)
	}
}

// checkRun asserts that a clean run of cfg recorded exactly the expected
// counts in every step, and that db holds exactly the points it should.
func checkRun(t *testing.T, db engine.Engine, res *Result, cfg Config) {
	t.Helper()
	n, h := cfg.Points, cfg.Points/2
	if res.Error != "" {
		t.Fatalf("Result.Error = %q", res.Error)
	}
	if len(res.Steps) != len(StepNames) {
		t.Fatalf("%d steps, want %d", len(res.Steps), len(StepNames))
	}
	batches := func(points int64) int64 { return (points + cfg.Batch - 1) / cfg.Batch }
	want := []struct {
		points, latencies, verified int64
	}{
		{n, batches(n), -1},
		{n, cfg.Series, n},
		{h, cfg.Series, -1},
		{n - h, 0, -1},
		{n - h, cfg.Series, n - h},
		{h, batches(h), -1},
	}
	for i, st := range res.Steps {
		w := want[i]
		if st.Name != StepNames[i] || st.Label != Label(st.Name, cfg) {
			t.Errorf("step %d is %q %q", i, st.Name, st.Label)
		}
		if st.Points != w.points {
			t.Errorf("%s: Points = %d, want %d", st.Name, st.Points, w.points)
		}
		// What the store holds after the step: n, then n-h once deleted,
		// then n again; bytes per point over them.
		live := []int64{n, n, n - h, n - h, n - h, n}[i]
		if st.LivePoints != live || st.BytesPerPoint != float64(st.Disk.Used)/float64(live) {
			t.Errorf("%s: %d live points, %.1f bytes/point; want %d, disk %d over them", st.Name, st.LivePoints, st.BytesPerPoint, live, st.Disk.Used)
		}
		if st.Error != "" {
			t.Errorf("%s: Error = %q", st.Name, st.Error)
		}
		switch {
		case w.latencies == 0 && st.Latency != nil:
			t.Errorf("%s: has latency %+v", st.Name, st.Latency)
		case w.latencies > 0 && (st.Latency == nil || st.Latency.Count != w.latencies):
			t.Errorf("%s: latency %+v, want %d samples", st.Name, st.Latency, w.latencies)
		}
		if w.verified >= 0 {
			v := st.Verify
			if v == nil || !v.OK() || v.Expected != w.verified || v.Read != w.verified {
				t.Errorf("%s: Verify = %+v, want %d read", st.Name, v, w.verified)
			}
		} else if st.Verify != nil {
			t.Errorf("%s: unexpected Verify %+v", st.Name, st.Verify)
		}
		if st.Wall < st.Time {
			t.Errorf("%s: Wall %v < Time %v", st.Name, st.Wall, st.Time)
		}
		if st.PeakRSS <= 0 || st.OpenFDs <= 0 {
			t.Errorf("%s: PeakRSS %d, OpenFDs %d", st.Name, st.PeakRSS, st.OpenFDs)
		}
		if cfg.Interval >= 0 {
			checkIntervals(t, st)
		}
	}
	// The store holds the points with index in [h, n+h): per series, in
	// order, with their values.
	g := points.Generator{Series: cfg.Series, Seed: cfg.Seed}
	var total int64
	for s := range cfg.Series {
		lower, upper := tskey.SeriesBounds(nil, uint64(s))
		it, err := db.NewIterator(engine.IterOptions{LowerBound: lower, UpperBound: upper})
		if err != nil {
			t.Fatal(err)
		}
		i := g.First(h, s)
		for ok := it.First(); ok; ok = it.Next() {
			series, ts, seq := g.Point(i)
			if !bytes.Equal(it.Key(), tskey.AppendKey(nil, series, ts, seq)) || !bytes.Equal(it.Value(), points.AppendValue(nil, g.Value(seq))) {
				t.Fatalf("series %d: got key %x, want point %d", s, it.Key(), i)
			}
			i += cfg.Series
			total++
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		if got, want := (i-g.First(h, s))/cfg.Series, g.Count(h, n+h, s); got != want {
			t.Errorf("series %d holds %d points, want %d", s, got, want)
		}
	}
	if total != n {
		t.Errorf("store holds %d points, want %d", total, n)
	}
}

func TestRunMemory(t *testing.T) {
	for _, cfg := range []Config{
		{Points: 10007, Series: 100, Batch: 64, Seed: 1}, // N not a multiple of series, batch or 2
		{Points: 7, Series: 3, Batch: 2, Seed: 2},
		{Points: 1, Series: 1, Batch: 1, Seed: 3}, // nothing to delete or write again
		{Points: 1000, Series: 1000, Batch: 1000, Seed: 4},
		{Points: 2000, Series: 1, Batch: 1, Seed: 5},
	} {
		t.Run(fmt.Sprintf("N%d_S%d_B%d", cfg.Points, cfg.Series, cfg.Batch), func(t *testing.T) {
			db := memory.New()
			defer db.Close()
			res, err := Run(db, t.TempDir(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			checkRun(t, db, res, cfg)
		})
	}
}

// TestRunPercentiles: the percentiles asked for are recorded for every
// timed step, between its p99 and its max, and the report shows them.
func TestRunPercentiles(t *testing.T) {
	db := memory.New()
	defer db.Close()
	cfg := Config{Points: 20_000, Series: 100, Batch: 50, Seed: 1, Percentiles: []float64{99.99, 75}}
	res, err := Run(db, t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Steps {
		if st.Latency == nil {
			if st.Percentiles != nil {
				t.Errorf("%s has no latency but percentiles %v", st.Name, st.Percentiles)
			}
			continue
		}
		p9999, p75 := st.Percentiles["p99.99_ns"], st.Percentiles["p75_ns"]
		if len(st.Percentiles) != 2 || p9999 < st.Latency.P99 || p9999 > st.Latency.Max || p75 < st.Latency.P50 || p75 > st.Latency.P99 {
			t.Errorf("%s: percentiles %v, latency %+v", st.Name, st.Percentiles, st.Latency)
		}
	}
	text := Report{Results: []*Result{res}}.Page().Text()
	if !strings.Contains(text, "p99.99") || !strings.Contains(text, "p75") {
		t.Errorf("the report lacks the percentiles asked for:\n%s", text)
	}
	if err := (Config{Points: 10, Series: 1, Batch: 1, Percentiles: []float64{100.5}}).Validate(); err == nil {
		t.Error("a percentile above 100 was accepted")
	}
}

func TestRunPebble(t *testing.T) {
	dir := t.TempDir()
	db, err := engine.Open("pebble", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	cfg := Config{Points: 30001, Series: 300, Batch: 100, Seed: 42}
	res, err := Run(db, dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	checkRun(t, db, res, cfg)
	for _, st := range res.Steps {
		if d := st.Disk; d.Used <= 0 || d.Used > d.Actual || d.Used > d.Apparent || d.Files == 0 {
			t.Errorf("%s: Disk = %+v", st.Name, st.Disk)
		}
	}
	if w := res.Step(StepWrite); w.LogicalBytes < cfg.Points*(tskey.KeySize+2) || w.PointsPerSec <= 0 || w.MicrosPerPoint <= 0 {
		t.Errorf("write: LogicalBytes %d, %v points/s, %v µs/point", w.LogicalBytes, w.PointsPerSec, w.MicrosPerPoint)
	}
	res.Engine = "pebble"
	t.Log("\n" + Report{Results: []*Result{res}}.Page().Text())
}

// faulty wraps an engine to break it in one way.
type faulty struct {
	engine.Engine
	flipValue   uint64 // sequence number whose value iterators corrupt
	dropPut     uint64 // sequence number whose write batches lose
	ignoreDel   bool   // DeleteRange does nothing
	failCommit  int    // Commit number (from 1) that fails
	failIterErr bool   // iterators report an error when exhausted
	stop        chan struct{}
	stopCommit  int  // Commit number (from 1) after which stop is closed
	stopIter    int  // NewIterator call (from 1) at which stop is closed
	stopCompact bool // Compact closes stop
	commits     int
	iters       int
}

var errInjected = errors.New("injected failure")

func (f *faulty) DeleteRange(start, end []byte) error {
	if f.ignoreDel {
		return nil
	}
	return f.Engine.DeleteRange(start, end)
}

func (f *faulty) Compact(start, end []byte) error {
	if f.stopCompact {
		close(f.stop)
	}
	return f.Engine.Compact(start, end)
}

func (f *faulty) NewBatch() engine.Batch { return &faultyBatch{Batch: f.Engine.NewBatch(), f: f} }

func (f *faulty) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	f.iters++
	if f.iters == f.stopIter {
		close(f.stop)
	}
	it, err := f.Engine.NewIterator(o)
	return &faultyIter{Iterator: it, f: f}, err
}

type faultyBatch struct {
	engine.Batch
	f *faulty
}

func (b *faultyBatch) Put(key, value []byte) {
	if _, _, seq, _ := tskey.ParseKey(key); seq == b.f.dropPut {
		return
	}
	b.Batch.Put(key, value)
}

func (b *faultyBatch) Commit() error {
	b.f.commits++
	if b.f.commits == b.f.failCommit {
		return errInjected
	}
	if b.f.commits == b.f.stopCommit {
		defer close(b.f.stop)
	}
	return b.Batch.Commit()
}

type faultyIter struct {
	engine.Iterator
	f   *faulty
	val []byte
	end bool
}

func (it *faultyIter) Next() bool  { return it.track(it.Iterator.Next()) }
func (it *faultyIter) First() bool { return it.track(it.Iterator.First()) }
func (it *faultyIter) track(ok bool) bool {
	it.end = !ok
	return ok
}

func (it *faultyIter) Value() []byte {
	v := it.Iterator.Value()
	if _, _, seq, _ := tskey.ParseKey(it.Key()); seq == it.f.flipValue {
		it.val = append(it.val[:0], v...)
		it.val[len(it.val)-1] ^= 1
		return it.val
	}
	return v
}

func (it *faultyIter) Err() error {
	if it.f.failIterErr && it.end {
		return errInjected
	}
	return it.Iterator.Err()
}

func (it *faultyIter) Close() error {
	err := it.Iterator.Close()
	if it.f.failIterErr && it.end {
		return errInjected
	}
	return err
}

func runFaulty(t *testing.T, f *faulty, cfg Config) (*Result, error) {
	t.Helper()
	db := memory.New()
	t.Cleanup(func() { db.Close() })
	f.Engine = db
	res, err := Run(f, t.TempDir(), cfg)
	if res == nil {
		t.Fatalf("Run returned no result: %v", err)
	}
	if (err == nil) != (res.Error == "") {
		t.Fatalf("error %v but Result.Error %q", err, res.Error)
	}
	return res, err
}

var faultCfg = Config{Points: 1001, Series: 10, Batch: 10, Seed: 7}

// TestRunDetectsCorruptValue: under every kind and encoding of values, a
// value the engine changed fails both query steps, and the report names
// the values.
func TestRunDetectsCorruptValue(t *testing.T) {
	const seed = "../points/testdata/weather-sample.csv"
	for _, v := range []points.Values{{}, {Encoding: points.Float64}, {Kind: points.Real, File: seed}, {Kind: points.Real, Encoding: points.Float64, File: seed}} {
		t.Run(v.String(), func(t *testing.T) {
			cfg := faultCfg
			cfg.Values = v
			// Point 900 (seq 901) survives the delete, so both queries see it.
			res, err := runFaulty(t, &faulty{flipValue: 901}, cfg)
			if !errors.Is(err, ErrVerification) {
				t.Fatalf("error %v, want ErrVerification", err)
			}
			if len(res.Steps) != len(StepNames) {
				t.Fatalf("run stopped after %d steps: a wrong value is not an engine failure", len(res.Steps))
			}
			for _, name := range []string{StepQuery, StepQueryAfterDelete} {
				st := res.Step(name)
				if v := st.Verify; v.Wrong != 1 || v.Missing != 0 || v.Unexpected != 0 || v.Read != v.Expected || !strings.Contains(v.First, "seq 901") {
					t.Errorf("%s: Verify = %+v", name, v)
				}
				if !strings.Contains(st.Error, "1 wrong;") {
					t.Errorf("%s: Error = %q", name, st.Error)
				}
			}
			if !strings.Contains(res.Error, "query: ") || !strings.Contains(res.Error, "query_after_delete: ") {
				t.Errorf("Result.Error = %q", res.Error)
			}
			text := Report{Results: []*Result{res}}.Page().Text()
			if !strings.Contains(text, "FAILED") {
				t.Error("report does not show the failure")
			}
			if !strings.Contains(text, "seed 7, settle off"+v.Note()+".") {
				t.Errorf("report does not name the values:\n%s", text)
			}
		})
	}
}

func TestRunDetectsLostWrite(t *testing.T) {
	res, err := runFaulty(t, &faulty{dropPut: 1001}, faultCfg) // the last point of step 1
	if !errors.Is(err, ErrVerification) {
		t.Fatalf("error %v, want ErrVerification", err)
	}
	if v := res.Step(StepQuery).Verify; v.Missing != 1 || v.Read != faultCfg.Points-1 {
		t.Errorf("query: Verify = %+v", v)
	}
	if st := res.Step(StepWrite); !strings.Contains(st.Error, "seq 1001") {
		t.Errorf("write: spot check missed the lost point: %q", st.Error)
	}
}

func TestRunDetectsIgnoredDelete(t *testing.T) {
	res, err := runFaulty(t, &faulty{ignoreDel: true}, faultCfg)
	if !errors.Is(err, ErrVerification) {
		t.Fatalf("error %v, want ErrVerification", err)
	}
	h := faultCfg.Points / 2
	if v := res.Step(StepQueryAfterDelete).Verify; v.Unexpected != h || v.Read != faultCfg.Points || v.Missing != 0 {
		t.Errorf("query_after_delete: Verify = %+v, want %d unexpected", v, h)
	}
	if !res.Step(StepQuery).Verify.OK() {
		t.Errorf("query: %+v", res.Step(StepQuery).Verify)
	}
}

func TestRunStopsOnEngineError(t *testing.T) {
	res, err := runFaulty(t, &faulty{failCommit: 3}, faultCfg)
	if !errors.Is(err, errInjected) {
		t.Fatalf("error %v, want the engine's", err)
	}
	if len(res.Steps) != 1 || !strings.Contains(res.Steps[0].Error, "commit of points 20..29") {
		t.Fatalf("steps %+v", res.Steps)
	}
	// The failed step's figures are of the 20 points committed, not of
	// the step's plan.
	if st := res.Steps[0]; st.Points != 20 || st.PointsPerSec != 20/st.Time.Seconds() {
		t.Errorf("failed write step: %d points at %.0f points/s, want the 20 committed in %v", st.Points, st.PointsPerSec, st.Time)
	}
	if !strings.HasPrefix(res.Error, "write: ") {
		t.Errorf("Result.Error = %q", res.Error)
	}

	res, err = runFaulty(t, &faulty{failIterErr: true}, faultCfg)
	if !errors.Is(err, errInjected) || len(res.Steps) != 2 || !strings.Contains(res.Steps[1].Error, "series 0: iterator") {
		t.Fatalf("iterator error: %v, steps %+v", err, res.Steps)
	}
}

// TestRunStops checks that Config.Stop ends the run in its step with the
// figures of what that step did (the -max-time stop of a 100M run keeps
// them), and that a stopped run is not a failed one.
func TestRunStops(t *testing.T) {
	saved := false
	run := func(f *faulty) (*Result, error) {
		f.stop = make(chan struct{})
		f.Engine = memory.New()
		t.Cleanup(func() { f.Engine.Close() })
		cfg := faultCfg
		cfg.Stop = f.stop
		cfg.AfterWrite = func() error { saved = true; return nil }
		return Run(f, t.TempDir(), cfg)
	}

	res, err := run(&faulty{stopCommit: 3})
	if saved {
		t.Error("AfterWrite (a dataset's save) ran after a stopped write step")
	}
	if !errors.Is(err, ErrStopped) || res.Error != "" || len(res.Steps) != 1 {
		t.Fatalf("stop in the write step: error %v, Result.Error %q, %d steps", err, res.Error, len(res.Steps))
	}
	st := res.Steps[0]
	if st.Points != 30 || st.Error != "stopped after 30 of 1001 points" || st.Latency == nil || st.Latency.Count != 3 || st.PointsPerSec <= 0 {
		t.Errorf("stopped write step: points %d, error %q, latency %+v, %.0f points/s", st.Points, st.Error, st.Latency, st.PointsPerSec)
	}
	checkIntervals(t, st)

	// Series 2's iterator closes stop: series 0 to 2 are read and
	// checked, series 3 is not begun.
	res, err = run(&faulty{stopIter: 3})
	if !errors.Is(err, ErrStopped) || res.Error != "" || len(res.Steps) != 2 {
		t.Fatalf("stop in the query step: error %v, Result.Error %q, %d steps", err, res.Error, len(res.Steps))
	}
	st = res.Steps[1]
	v := st.Verify
	var want int64
	for series := range int64(3) {
		want += (points.Generator{Series: faultCfg.Series, Seed: faultCfg.Seed}).Count(0, faultCfg.Points, series)
	}
	if v.Expected != want || v.Read != want || !v.OK() || st.Points != want || !strings.HasPrefix(st.Error, "stopped after ") {
		t.Errorf("stopped query step: points %d, error %q, verify %+v; want %d read and checked", st.Points, st.Error, v, want)
	}

	// Compaction cannot stop: it ends, and no step follows it.
	res, err = run(&faulty{stopCompact: true})
	if !errors.Is(err, ErrStopped) || res.Error != "" || len(res.Steps) != 4 || res.Steps[3].Name != StepCompact || res.Steps[3].Error != "" {
		t.Fatalf("stop in compaction: error %v, Result.Error %q, steps %+v", err, res.Error, res.Steps)
	}
}

func TestRunInvalidConfig(t *testing.T) {
	res, err := Run(memory.New(), t.TempDir(), Config{Points: 10, Series: 20, Batch: 1})
	if res != nil || !errors.Is(err, ErrInvalidConfig) {
		t.Fatalf("Run = %v, %v", res, err)
	}
}

// recorder is a harness.Progress that checks the call protocol.
type recorder struct {
	mu     sync.Mutex
	calls  []string
	active bool
	last   int64
	t      *testing.T
}

func (r *recorder) Begin(step string, total int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.active {
		r.t.Error("Begin before End")
	}
	r.active = true
	r.calls = append(r.calls, fmt.Sprintf("%s/%d", step, total))
}

func (r *recorder) Update(done int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.active || done < r.last {
		r.t.Errorf("Update(%d) outside a step or going back from %d", done, r.last)
	}
	r.last = done
}

func (r *recorder) End() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.active = false
	r.calls = append(r.calls, fmt.Sprintf("end@%d", r.last))
	r.last = 0
}

func TestRunProgress(t *testing.T) {
	p := &recorder{t: t}
	cfg := Config{Points: 101, Series: 10, Batch: 5, Progress: p}
	if _, err := Run(memory.New(), t.TempDir(), cfg); err != nil {
		t.Fatal(err)
	}
	// The compaction counts nothing as it goes (total 0: no rate, no ETA)
	// and reports the points it handled at its end.
	want := "Write 101 values/101 end@101 Query 101 values/101 end@101 Delete 50 values/50 end@50 " +
		"Compaction/0 end@51 Query 51 values/51 end@51 Write 50 values/50 end@50"
	if got := strings.Join(p.calls, " "); got != want {
		t.Errorf("progress calls:\n%s\nwant\n%s", got, want)
	}
}

// TestHarnessMemoryFlat runs the workload on an engine that stores
// nothing, at two sizes ten times apart: the harness's allocations must
// not grow with the number of points.
func TestHarnessMemoryFlat(t *testing.T) {
	mallocs := func(points int64) uint64 {
		cfg := Config{Points: points, Series: 100, Batch: 100, Seed: 1}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		res, err := Run(newSynthetic(cfg), t.TempDir(), cfg)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		checkCounts(t, res, cfg)
		return after.Mallocs - before.Mallocs
	}
	small, large := mallocs(20_000), mallocs(200_000)
	t.Logf("allocations: %d for 20k points, %d for 200k", small, large)
	if large > small+small/2 {
		t.Errorf("allocations grow with points: %d for 20k, %d for 200k", small, large)
	}
}

// checkCounts asserts what a clean run's steps read.
func checkCounts(t *testing.T, res *Result, cfg Config) {
	t.Helper()
	if res.Error != "" || len(res.Steps) != len(StepNames) {
		t.Fatalf("run failed: %s", res.Error)
	}
	n, h := cfg.Points, cfg.Points/2
	if v := res.Step(StepQuery).Verify; !v.OK() || v.Read != n {
		t.Errorf("query: %+v", v)
	}
	if v := res.Step(StepQueryAfterDelete).Verify; !v.OK() || v.Read != n-h {
		t.Errorf("query_after_delete: %+v", v)
	}
}

// busyFor is an engine.Backgrounder busy for its first polls.
type busyFor struct {
	*synthetic
	polls int
}

func (b *busyFor) Busy() (bool, error) {
	b.polls--
	return b.polls >= 0, nil
}

func TestRunSettlesBackgrounder(t *testing.T) {
	cfg := Config{Points: 1000, Series: 10, Batch: 10, Settle: true}
	db := &busyFor{synthetic: newSynthetic(cfg), polls: 3}
	res, err := Run(db, t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := res.Step(StepWrite); st.Settle < 3*busyPoll || st.Settle > 3*busyPoll+time.Second || st.SettleTimedOut {
		t.Errorf("write: settled in %v (timed out %v), want about %v", st.Settle, st.SettleTimedOut, 3*busyPoll)
	}
	if st := res.Step(StepQuery); st.Settle > busyPoll {
		t.Errorf("query: settled in %v on an idle engine", st.Settle)
	}
	cfg.SettleTimeout = 100 * time.Millisecond
	db.polls = 1 << 30
	res, _ = Run(db, t.TempDir(), cfg)
	if st := res.Step(StepWrite); !st.SettleTimedOut || !strings.Contains(Report{Results: []*Result{res}}.Page().Text(), ">") {
		t.Errorf("a never idle engine did not time out: %+v", st)
	}
}

func TestSettleWatchesDirectory(t *testing.T) {
	dir := t.TempDir()
	r := &runner{db: memory.New(), dir: dir, cfg: Config{SettleTimeout: 10 * time.Second}}
	if d, timedOut := r.settle(); d != 0 || timedOut {
		t.Errorf("quiet directory: settle = %v, %v", d, timedOut)
	}
	// A writer that keeps growing a file for about a second.
	done := make(chan struct{})
	go func() {
		defer close(done)
		f, err := os.Create(filepath.Join(dir, "busy"))
		if err != nil {
			t.Error(err)
			return
		}
		defer f.Close()
		for range 10 {
			f.Write(make([]byte, 4096))
			time.Sleep(100 * time.Millisecond)
		}
	}()
	d, timedOut := r.settle()
	<-done
	if timedOut || d < 500*time.Millisecond || d > 3*time.Second {
		t.Errorf("busy directory: settle = %v, %v; want about a second", d, timedOut)
	}
	r.cfg.SettleTimeout = 300 * time.Millisecond
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
				os.WriteFile(filepath.Join(dir, "busy"), make([]byte, i%7*512), 0o644)
			}
		}
	}()
	if _, timedOut := r.settle(); !timedOut {
		t.Error("settle did not time out on a directory that never stops changing")
	}
}
