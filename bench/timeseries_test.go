package bench

import (
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/timeseries"
)

// pointsPerSeries is the time-series workload's default shape (1M points
// over 5k series), kept for every b.N.
const pointsPerSeries = 200

// BenchmarkTimeSeries times each step of the time-series workload on
// every engine: a round runs timeseries.Run on b.N points in a new store,
// timing only the step named by op and stopping before the next, so the
// steps before it are setup.
func BenchmarkTimeSeries(b *testing.B) {
	for _, name := range engineNames(b) {
		b.Run("engine="+name, func(b *testing.B) {
			for i, step := range timeseries.StepNames {
				b.Run("op="+step, func(b *testing.B) {
					b.StopTimer()
					series := max(1, min(int64(b.N)/pointsPerSeries, 500_000))
					cfg := timeseries.Config{Points: int64(b.N), Series: series, Batch: min(1000, series), Seed: seed}
					timer := &stepTimer{b: b, target: i}
					cfg.Progress = timer
					opts := options()
					dir := filepath.Join(b.TempDir(), "db")
					db, err := engine.Open(name, dir, &opts)
					if err != nil {
						b.Fatal(err)
					}
					res, err := timeseries.Run(&cut{Engine: db, stop: &timer.stop}, dir, cfg)
					if cerr := db.Close(); cerr != nil {
						b.Fatal(cerr)
					}
					if res == nil {
						b.Fatal(err)
					}
					st := res.Step(step)
					switch {
					case st == nil:
						b.Fatalf("%s did not run: %v", step, err)
					case st.Error != "":
						b.Fatal(st.Error)
					case err != nil && !errors.Is(err, errCut):
						b.Fatal(err)
					}
					report(b, st, cfg)
				})
			}
		})
	}
}

// report replaces ns/op by the step's engine time per point and adds
// its other figures: latency per write batch, per series scan or per
// series range delete, and bytes on disk per live point.
func report(b *testing.B, st *timeseries.Step, cfg timeseries.Config) {
	if st.Points > 0 {
		b.ReportMetric(float64(st.Time.Nanoseconds())/float64(st.Points), "ns/op")
	}
	if st.PointsPerSec > 0 {
		b.ReportMetric(st.PointsPerSec, "points/s")
	}
	if l := st.Latency; l != nil && l.Count > 0 {
		per := map[string]string{
			timeseries.StepWrite: "/batch", timeseries.StepWriteMore: "/batch",
			timeseries.StepQuery: "/scan", timeseries.StepQueryAfterDelete: "/scan",
			timeseries.StepDelete: "/range",
		}[st.Name]
		b.ReportMetric(float64(l.P50.Nanoseconds()), "p50-ns"+per)
		b.ReportMetric(float64(l.P99.Nanoseconds()), "p99-ns"+per)
		b.ReportMetric(float64(l.Max.Nanoseconds()), "max-ns"+per)
	}
	if live := livePoints(st.Name, cfg.Points); live > 0 {
		b.ReportMetric(float64(st.Disk.Used)/float64(live), "disk-B/point")
	}
	b.ReportMetric(float64((st.CPUUser+st.CPUSys).Nanoseconds())/float64(max(st.Points, 1)), "cpu-ns/op")
}

// livePoints is how many points the store holds after a step of a run
// of n points.
func livePoints(step string, n int64) int64 {
	switch step {
	case timeseries.StepWrite, timeseries.StepQuery, timeseries.StepWriteMore:
		return n
	}
	return n - n/2
}

// stepTimer is the workload's Progress: it runs the benchmark timer
// during one step, and from the start of the next step on makes cut
// refuse every engine call, so that the run ends there.
type stepTimer struct {
	b      *testing.B
	target int // index of the timed step in timeseries.StepNames
	begun  int
	stop   atomic.Bool
}

func (t *stepTimer) Begin(string, int64) {
	switch t.begun {
	case t.target:
		t.b.StartTimer()
	case t.target + 1:
		t.stop.Store(true)
	}
	t.begun++
}

func (t *stepTimer) Update(int64) {}

func (t *stepTimer) End() {
	if t.begun == t.target+1 {
		t.b.StopTimer()
	}
}

// errCut ends a run after the timed step.
var errCut = errors.New("bench: run cut after the timed step")

// cut passes every call to its engine until stop is set, then fails the
// calls each step starts with.
type cut struct {
	engine.Engine
	stop *atomic.Bool
}

func (c *cut) NewIterator(o engine.IterOptions) (engine.Iterator, error) {
	if c.stop.Load() {
		return nil, errCut
	}
	return c.Engine.NewIterator(o)
}

func (c *cut) DeleteRange(start, end []byte) error {
	if c.stop.Load() {
		return errCut
	}
	return c.Engine.DeleteRange(start, end)
}

func (c *cut) Compact(start, end []byte) error {
	if c.stop.Load() {
		return errCut
	}
	return c.Engine.Compact(start, end)
}

func (c *cut) NewBatch() engine.Batch { return &cutBatch{Batch: c.Engine.NewBatch(), stop: c.stop} }

type cutBatch struct {
	engine.Batch
	stop *atomic.Bool
}

func (b *cutBatch) Commit() error {
	if b.stop.Load() {
		return errCut
	}
	return b.Batch.Commit()
}
