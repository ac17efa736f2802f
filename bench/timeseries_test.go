package bench

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

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
					timer := &stepTimer{b: b, target: i, stop: make(chan struct{})}
					cfg.Progress, cfg.Stop = timer, timer.stop
					opts := options()
					dir := filepath.Join(b.TempDir(), "db")
					db, err := engine.Open(name, dir, &opts)
					if err != nil {
						b.Fatal(err)
					}
					res, err := timeseries.Run(db, dir, cfg)
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
					case err != nil && !errors.Is(err, timeseries.ErrStopped):
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

// stepTimer is the workload's Progress for a run of which one step is
// measured: the step begun target-th (from 0). It runs b's timer during
// that step if b is set, measures the CPU time of the thread running it,
// and closes stop once it is done, which ends the run there (the run's
// Config.Stop).
type stepTimer struct {
	b      *testing.B
	target int
	begun  int
	stop   chan struct{}
	cpu    time.Duration
}

func (t *stepTimer) Begin(string, int64) {
	if t.begun == t.target {
		t.cpu = -threadCPU()
		if t.b != nil {
			t.b.StartTimer()
		}
	}
	t.begun++
}

func (t *stepTimer) Update(int64) {}

func (t *stepTimer) End() {
	if t.begun == t.target+1 {
		if t.b != nil {
			t.b.StopTimer()
		}
		t.cpu += threadCPU()
		close(t.stop)
	}
}
