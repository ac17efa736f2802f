package workload

import (
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report/reporttest"
)

// syntheticReport is a fixed report, not a real run: two engines that
// finished and one that failed, with figures in the range of the 2014
// table.
func syntheticReport() Report {
	cfg := Config{Points: 100_000_000, Series: 500_000, Batch: 1000, Seed: 42, Settle: true}
	step := func(name string, t time.Duration, disk int64, mult float64) Step {
		pts := map[string]int64{StepWrite: 1e8, StepQuery: 1e8, StepDelete: 5e7, StepCompact: 5e7, StepQueryAfterDelete: 5e7, StepWriteMore: 5e7}[name]
		st := Step{
			Name: name, Label: Label(name, cfg), Points: pts, Time: t,
			Wall:         t + t/8,
			Settle:       time.Duration(float64(3*time.Second) * mult),
			CPUUser:      time.Duration(float64(t) * 1.2),
			CPUSys:       t / 5,
			IO:           &measure.IO{ReadBytes: int64(1e9 * mult), WriteBytes: int64(7e9 * mult), CancelledWriteBytes: 1 << 20},
			LogicalBytes: pts * 35,
			Disk:         diskusage.Usage{Actual: disk, Apparent: disk + disk/10, Files: int(disk >> 26)},
			PeakRSS:      int64(300e6 * mult),
			OpenFDs:      int(120 * mult),
		}
		if name != StepCompact {
			st.PointsPerSec = float64(pts) / t.Seconds()
			st.MicrosPerPoint = t.Seconds() * 1e6 / float64(pts)
		}
		switch name {
		case StepQuery, StepQueryAfterDelete:
			st.Verify = &Verification{Expected: pts, Read: pts}
		default:
			st.WriteAmp = float64(st.IO.WriteBytes) / float64(st.LogicalBytes)
		}
		if name != StepCompact {
			st.Latency = &measure.Percentiles{Count: 500_000, P50: time.Duration(float64(40*time.Microsecond) * mult),
				P99: time.Duration(float64(900*time.Microsecond) * mult), P999: time.Duration(float64(12*time.Millisecond) * mult),
				Max: time.Duration(float64(310*time.Millisecond) * mult)}
		}
		return st
	}
	rocks := &Result{
		Engine: "rocksdb", Version: "8.9.1", Config: cfg,
		Options: engine.Options{Sync: engine.SyncNone, CacheSize: 64 << 20, WriteBufferSize: 64 << 20, MaxOpenFiles: 1000, BloomBitsPerKey: 10},
		Steps: []Step{
			step(StepWrite, 21*time.Minute+18600*time.Millisecond, 3_435_973_837, 1),
			step(StepQuery, 2*time.Minute+44990*time.Millisecond, 3_435_973_837, 0.1),
			step(StepDelete, time.Minute+53840*time.Millisecond, 3_500_000_000, 0.2),
			step(StepCompact, 3*time.Minute+20270*time.Millisecond, 1_717_986_918, 0.8),
			step(StepQueryAfterDelete, 13590*time.Millisecond, 1_717_986_918, 0.1),
			step(StepWriteMore, time.Minute+26900*time.Millisecond, 2_500_000_000, 0.5),
		},
	}
	lmdb := &Result{
		Engine: "lmdb", Version: "0.9.31", Config: cfg,
		Options: engine.Options{Sync: engine.SyncNone, CacheSize: 64 << 20, WriteBufferSize: 64 << 20, MaxOpenFiles: 1000, BloomBitsPerKey: 10},
		Steps: []Step{
			step(StepWrite, time.Hour+13*time.Minute+21300*time.Millisecond, 8_160_437_862, 2),
			step(StepQuery, 5*time.Minute+24800*time.Millisecond, 8_160_437_862, 0.1),
			step(StepDelete, 6*time.Minute+15980*time.Millisecond, 8_160_437_862, 0.3),
			step(StepCompact, 1548*time.Nanosecond, 8_160_437_862, 0),
			step(StepQueryAfterDelete, 8480*time.Millisecond, 8_160_437_862, 0.1),
			step(StepWriteMore, 3*time.Minute+25960*time.Millisecond, 8_160_437_862, 1),
		},
	}
	lmdb.Steps[3].Latency = nil
	broken := &Result{
		Engine: "broken", Version: "0.1", Config: cfg,
		Options: engine.Options{Sync: engine.SyncNone},
		Steps: []Step{
			step(StepWrite, 10*time.Minute+45410*time.Millisecond, 3_435_973_837, 1),
			step(StepQuery, 13*time.Minute+49010*time.Millisecond, 3_435_973_837, 0.1),
			step(StepDelete, 7*time.Second, 3_435_973_837, 0.1),
		},
	}
	q := &broken.Steps[1]
	q.Verify = &Verification{Expected: 1e8, Read: 1e8 - 2, Missing: 3, Unexpected: 1, WrongValues: 2, First: "series 17: 3 points missing before seq 8500018"}
	q.Error = "workload: verification failed: " + q.Verify.summary()
	broken.Steps[2].Error = "series 0: delete range: disk full"
	broken.Steps[2].IO = nil
	broken.Steps[2].WriteAmp = 0
	broken.Error = "query: " + q.Error + "; delete: " + broken.Steps[2].Error
	return Report{
		Env: Environment{
			CPUModel: "Intel(R) Xeon(R) CPU @ 2.20GHz", Cores: 2, MemoryBytes: 24 << 30,
			Kernel: "6.1.0-18-amd64", OS: "linux", Arch: "amd64", GoVersion: "go1.26.8",
			DataPath: "/data/bench", Filesystem: "ext4",
			CommandLine: []string{"benchmark-storage", "-engine", "rocksdb,lmdb,broken", "-points", "100M", "-series", "500k", "-settle"},
			Seed:        42, Sync: engine.SyncNone,
			EngineVersions: map[string]string{"rocksdb": "8.9.1", "lmdb": "0.9.31", "broken": "0.1"},
			Start:          time.Date(2014, 6, 20, 12, 0, 0, 0, time.UTC),
		},
		Results: []*Result{rocks, lmdb, broken},
	}
}

func TestReportGolden(t *testing.T) {
	reporttest.Formats(t, syntheticReport())
}

// TestReportMarksBestAndFailures checks the main table's judgements
// rather than its layout.
func TestReportMarksBestAndFailures(t *testing.T) {
	text := syntheticReport().String()
	reporttest.Cells(t, text, map[string][]string{
		// The failed engine wrote fastest, but a failed engine is never best.
		"Write 100M values": {"21m18.6s *", "1h13m21.3s  ", "10m45.41s"},
		"Query 100M values": {"2m44.99s *", "5m24.8s  ", "13m49.01s !"},
		"Delete 50M values": {"1m53.84s *", "6m15.98s  ", "7s !"},
		"Compaction":        {"3m20.27s  ", "1.548µs *", "-"},
		"Status":            {"ok", "ok", "FAILED !"},
	})
	if strings.HasSuffix(reporttest.Row(t, text, "Write 100M values"), "*") {
		t.Error("the failed engine is marked best")
	}
	if !strings.Contains(text, "broken: query: workload: verification failed") {
		t.Error("the failed engine's error is not listed")
	}
}

// TestReportConfigOfCrashedEngine checks that an engine whose process
// crashed before reporting, and so has no config, does not blank the
// labels of the others.
func TestReportConfigOfCrashedEngine(t *testing.T) {
	r := syntheticReport()
	crashed := &Result{Engine: "crashed", Error: "child process: signal: killed"}
	r.Results = append([]*Result{nil, crashed}, r.Results...)
	text := r.String()
	if !strings.HasPrefix(text, "100M points over 500k series") {
		t.Errorf("intro from the crashed engine's empty config:\n%s", text)
	}
	reporttest.Cells(t, text, map[string][]string{
		"Write 100M values": {"-", "21m18.6s *"},
		"Status":            {"FAILED !", "ok"},
	})
	if strings.Contains(text, "0 values") {
		t.Errorf("labels from the crashed engine's empty config:\n%s", text)
	}
}

// TestReportJSONRoundTrip checks that a Result survives JSON, as it does
// when a child process hands it to the parent.
func TestReportJSONRoundTrip(t *testing.T) {
	reporttest.JSONRoundTrip(t, syntheticReport())
}

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1k", 1500: "1.5k", 1234: "1234", 10_000: "10k",
		500_000: "500k", 1_500_000: "1.5M", 50_000_000: "50M", 100_000_001: "100000001", 1_230_000: "1.23M", 2e9: "2G"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
