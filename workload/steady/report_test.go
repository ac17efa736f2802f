package steady

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/report/reporttest"
	"github.com/tsbench/storage/workload/harness"
)

// TestReport renders a real run in every format.
func TestReport(t *testing.T) {
	cfg := smallConfig()
	res, err := Run(memory.New(), t.TempDir(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	res.Engine = "memory"
	r := Report{RunID: "x", Env: harness.CollectEnvironment(t.TempDir()), Results: []*Result{res}}
	text := r.Page().Text()
	for _, want := range []string{"ingest points/s", "wrong answers", "disk last third", "final check", "by delete in buckets of"} {
		if !strings.Contains(text, want) {
			t.Errorf("text report lacks %q:\n%s", want, text)
		}
	}
	html := r.Page().HTML()
	for _, want := range []string{"Ingest rate", "Write p99", "Query p99", "Disk used", "RSS", "<svg"} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML report lacks %q", want)
		}
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, r, report.FormatJSON); err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || len(back.Results) != 1 || len(back.Results[0].Intervals) != len(res.Intervals) {
		t.Fatalf("JSON round trip: %v", err)
	}
	buf.Reset()
	if err := r.WriteCSV(&buf); err != nil || !strings.Contains(buf.String(), "interval.0") {
		t.Fatalf("CSV: %v", err)
	}
}

// syntheticReport is a fixed report, not a real run: two engines that
// kept the rate, one of them stalling, and one whose reads found expired
// points.
func syntheticReport() Report {
	cfg := Config{Duration: 4 * time.Second, Rate: 100_000, Writers: 2, Readers: 1, Series: 1000, Batch: 1000,
		Speedup: 20, Retention: 20 * time.Second, Seed: 1}.WithDefaults()
	lat := func(us float64) *measure.Percentiles {
		d := func(f float64) time.Duration { return time.Duration(us * f * float64(time.Microsecond)) }
		return &measure.Percentiles{Count: 400, P50: d(1), P99: d(5), P999: d(9), Max: d(20)}
	}
	result := func(name string, mult float64) *Result {
		r := &Result{Header: harness.Header{Engine: name, Version: "1.0", Options: map[string]any{"sync": "none", "cache_size": int64(8 << 20)}},
			Config: cfg, Elapsed: 4 * time.Second,
			Cost: harness.Cost{Wall: 4 * time.Second, CPUUser: time.Duration(3e9 * mult), CPUSys: time.Duration(5e8 * mult),
				IO: &measure.IO{WriteBytes: int64(80e6 * mult)}, PeakRSS: int64(150e6 * mult),
				Memory: &measure.MemoryPeaks{Private: int64(110e6 * mult), File: int64(35e6 * mult), Go: 30e6, Samples: 20}},
			Scheduled: 400_000, Written: 400_000, PointsPerSec: 100_000,
			Write: lat(800 * mult), Commit: lat(600 * mult), Query: lat(90 * mult),
			Queries: []Query{
				{Kind: "last", Count: 4000, PerSec: 1000, Latency: lat(20 * mult), Verify: harness.Verification{Read: 4000}},
				{Kind: "scan", Count: 400, PerSec: 100, Latency: lat(300 * mult), Verify: harness.Verification{Read: 80_000}},
			},
			Retention:     Retention{Passes: 8, Deletes: 8000, Expired: 200_000, Cutoff: 40 * time.Second, Latency: lat(5000 * mult)},
			SeriesIDs:     1000,
			Disk:          diskusage.Usage{Used: int64(30e6 * mult), Actual: int64(40e6 * mult), Apparent: int64(45e6 * mult), Files: 9},
			Final:         &harness.Verification{Read: 200_000},
			BytesPerPoint: 150 * mult,
		}
		for i := range 4 {
			r.Intervals = append(r.Intervals, Interval{Start: time.Duration(i) * time.Second, Length: time.Second,
				Points: 100_000, PointsPerSec: 100_000, Write: lat(800 * mult * float64(i+1)), Queries: 1100, Query: lat(90 * mult),
				Backlog: int64(i) * 1000, DataTime: time.Duration(i+1) * 20 * time.Second, Cutoff: time.Duration(i) * 10 * time.Second,
				DiskUsed: int64(25e6*mult) + int64(i)*1e6, LiveBytes: 6e6, SpaceAmp: 4.2 * mult, WriteAmp: 3.1 * mult, RSS: int64(140e6 * mult),
				EngineMetrics: engine.Metrics{engine.MetricCompactBytes: int64(20e6 * mult)}})
		}
		r.summarize()
		return r
	}
	pebble := result("pebble", 1)
	pebble.Intervals[2].EngineMetrics[engine.MetricStalls] = 1
	pebble.summarize()
	rocks := result("rocksdb", 1.4)
	broken := result("broken", 0.7)
	broken.Queries[1].Verify = harness.Verification{Read: 80_000, Expired: 12, First: "series 3: point at 12s expired before the query began"}
	broken.Error = "steady: verification failed: 12 expired points read"
	return Report{
		RunID: "20261123T120000Z-0a1b2c",
		Env: harness.Environment{
			CPUModel: "AMD EPYC", Cores: 2, MemoryBytes: 24 << 30, Kernel: "6.18.0", OS: "linux", Arch: "amd64",
			GoVersion: "go1.26.8", DataPath: "/data/bench", Filesystem: "ext4",
			CommandLine: []string{"benchmark-storage", "-workload", "steady", "-engine", "pebble,rocksdb,broken", "-duration", "4s"},
			Seed:        1, Sync: engine.SyncNone,
			EngineVersions: map[string]string{"pebble": "1.0", "rocksdb": "1.0", "broken": "1.0"},
			Start:          time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC),
		},
		Results: []*Result{pebble, rocks, broken},
	}
}

func TestReportGolden(t *testing.T) {
	reporttest.Formats(t, "report", syntheticReport())
}

// TestReportFailedEngine: an engine that failed before it measured
// anything shows "-" in every figure's row, not 0 (wrong answers 0, disk
// at end 0 B looked like a clean run).
func TestReportFailedEngine(t *testing.T) {
	r := syntheticReport()
	failed := &Result{Config: r.Results[0].Config}
	failed.Engine, failed.Error = "unopened", "open: no such library"
	r.Results = append(r.Results, failed)
	text := r.Page().Text()
	for _, row := range []string{"ingest points/s", "wrong answers", "disk at end", "space amplification"} {
		i := strings.Index(text, row)
		if i < 0 {
			t.Fatalf("no row %q:\n%s", row, text)
		}
		line := text[i : i+strings.IndexByte(text[i:], '\n')]
		if f := strings.Fields(line); f[len(f)-1] != "-" {
			t.Errorf("row %q: %q, want the failed engine's cell -\n%s", row, line, text)
		}
	}
	// The CSV has its settings and error, and no figure for it.
	var csv bytes.Buffer
	if err := r.WriteCSV(&csv); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, l := range strings.Split(csv.String(), "\n") {
		if strings.Contains(l, ",unopened,") {
			rows = append(rows, strings.Join(strings.Split(l, ",")[5:7], ","))
		}
	}
	got := strings.Join(rows, " ")
	if !strings.Contains(got, "config.rate,value") || !strings.Contains(got, "error,value") {
		t.Errorf("the failed engine's CSV rows lack its settings or error: %s", got)
	}
	for _, figure := range []string{"elapsed_ns", "points_per_sec", "cost.", "disk.", "space_amplification"} {
		if strings.Contains(got, figure) {
			t.Errorf("the failed engine's CSV has %s: %s", figure, got)
		}
	}
}
