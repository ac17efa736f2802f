package mixed

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/report/reporttest"
	"github.com/tsbench/storage/workload/dataset"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/querymix"
)

// syntheticReport is three engines on a 15 s run: one reusing a
// dataset, one slower, and one whose reads missed acknowledged points.
func syntheticReport() Report {
	cfg := Config{Duration: 3 * time.Second, Writers: 2, Readers: 2, Series: 2000, Batch: 1000, Points: 1e6,
		Mix: querymix.DefaultMix, Window: time.Minute, MultiSeries: 10, Seed: 1}
	lat := func(us float64) *measure.Percentiles {
		d := func(f float64) time.Duration { return time.Duration(us * f * float64(time.Microsecond)) }
		return &measure.Percentiles{Count: 1000, P50: d(1), P99: d(4), P999: d(9), Max: d(30)}
	}
	ops := func(mult float64) []Operation {
		out := []Operation{{Kind: KindWrite, LatencyOf: "batch", Latency: lat(900 * mult),
			PerSecond: []int64{int64(400e3 / mult), int64(380e3 / mult), int64(410e3 / mult), 1000}}}
		for i, k := range querymix.QueryKinds {
			per := int64(float64(5000*(5-i)) / mult)
			out = append(out, Operation{Kind: k, LatencyOf: "query", Latency: lat(float64(20*(i+1)) * mult),
				PerSecond: []int64{per, per + 10, per - 10, 5}})
		}
		for i := range out {
			op := &out[i]
			for _, n := range op.PerSecond {
				op.Count += n
			}
			op.PerSecondStats = perSecondStats(op.PerSecond, 10*time.Millisecond)
			op.OpsPerSec = float64(op.Count) / 3.01
			op.Points = op.Count
			if i > 0 {
				op.Points = op.Count * int64(10*i)
				op.Verify = &harness.Verification{Read: op.Points}
			}
		}
		return out
	}
	result := func(name, version string, mult float64) *Result {
		r := &Result{Header: harness.Header{Engine: name, Version: version, Options: map[string]any{"sync": "none", "cache_size": int64(8 << 20)}},
			Config: cfg, Elapsed: 3010 * time.Millisecond, Operations: ops(mult),
			Cost: harness.Cost{Wall: 3010 * time.Millisecond, CPUUser: time.Duration(4e9 * mult), CPUSys: time.Duration(1e9 * mult),
				IO: &measure.IO{ReadBytes: 1 << 20, WriteBytes: int64(300e6 * mult)}, PeakRSS: int64(200e6 * mult),
				Memory: &measure.MemoryPeaks{Private: int64(150e6 * mult), File: int64(45e6 * mult), Go: 40e6, Samples: 15}},
			Disk:          diskusage.Usage{Used: int64(90e6 * mult), Actual: int64(100e6 * mult), Apparent: int64(110e6 * mult), Files: 12},
			BytesPerPoint: 45 * mult,
			Preload: &Preload{Points: 1e6, Time: time.Duration(2e9 * mult), PointsPerSec: 5e5 / mult,
				Cost: harness.Cost{Wall: time.Duration(2.2e9 * mult), CPUUser: 2e9, PeakRSS: 100e6}, Latency: lat(1800)}}
		var written int64 = r.Operations[0].Count
		r.Final = &harness.Verification{Read: 1e6 + written}
		return r
	}
	rocks := result("rocksdb", "8.9.1", 1)
	rocks.Preload = nil
	rocks.Dataset = &dataset.Use{Path: "/data/ds-rocksdb-1M", Reused: true, Created: time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC),
		Method: "hard links", Clone: 41 * time.Millisecond}
	pebble := result("pebble", "v2.1.7", 1.3)
	broken := result("broken", "0.1", 0.8)
	// rocksdb and pebble report their own work; broken reports none.
	for _, res := range []*Result{rocks, pebble} {
		res.EngineMetrics = engine.Metrics{
			engine.MetricCompactBytes: 210_000_000, engine.MetricCompactTime: int64(1900 * time.Millisecond),
			engine.MetricStalls: 0, engine.MetricStallTime: 0,
			engine.MetricCacheHits: 4_100_000, engine.MetricCacheMisses: 52_000, engine.MetricMemtableBytes: 23 << 20,
		}
	}
	pebble.EngineMetrics[engine.MetricStalls], pebble.EngineMetrics[engine.MetricStallTime] = 3, int64(120*time.Millisecond)
	v := broken.Operations[2].Verify
	v.Missing, v.Wrong, v.First = 17, 1, "series 17: 17 acknowledged points missing before point 512"
	broken.Error = "recent: mixed: verification failed: " + v.Summary("points")
	return Report{
		RunID: "20261123T120000Z-0a1b2c",
		Env: harness.Environment{
			CPUModel: "AMD EPYC", Cores: 2, MemoryBytes: 24 << 30, Kernel: "6.18.0", OS: "linux", Arch: "amd64",
			GoVersion: "go1.26.8", DataPath: "/data/bench", Filesystem: "ext4",
			CommandLine: []string{"benchmark-storage", "-workload", "mixed", "-engine", "rocksdb,pebble,broken", "-duration", "3s", "-series", "2k"},
			Seed:        1, Sync: engine.SyncNone,
			EngineVersions: map[string]string{"rocksdb": "8.9.1", "pebble": "v2.1.7", "broken": "0.1"},
			EngineBuilds:   map[string]string{"pebble": "Go module v2.1.7"},
			Start:          time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC),
		},
		Results: []*Result{rocks, pebble, broken},
	}
}

func TestReportGolden(t *testing.T) {
	reporttest.Formats(t, "report", syntheticReport())
}

func TestReportJSONRoundTrip(t *testing.T) {
	reporttest.JSONRoundTrip(t, syntheticReport())
}

// TestReportCells checks the judgements rather than the layout: the
// best of each row, the failed engine never best, the reuse said.
func TestReportCells(t *testing.T) {
	text := syntheticReport().Page().Text()
	reporttest.Cells(t, text, map[string][]string{
		"write (points)": {"ops/s", "396k *", "304k  ", "495k"},
		"Status":         {"ok", "ok", "FAILED !"},
	})
	for _, want := range []string{
		"rocksdb: preload not written: reused the dataset /data/ds-rocksdb-1M (written 2026-11-20 09:30), cloned by hard links in\n41ms.",
		"17 missing, 0 unexpected, 1 wrong of",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}

func TestPerSecondStats(t *testing.T) {
	for _, c := range []struct {
		name   string
		counts []int64
		final  time.Duration
		want   *Spread
	}{
		{"partial last second left out", []int64{10, 30, 20, 1}, 200 * time.Millisecond, &Spread{10, 20, 30}},
		{"whole last second kept", []int64{10, 30, 20, 40}, time.Second, &Spread{10, 25, 40}},
		{"even count: mean of the middle two", []int64{1, 2, 3, 4, 9}, time.Millisecond, &Spread{1, 2.5, 4}},
		{"only a partial second", []int64{5}, 500 * time.Millisecond, nil},
	} {
		got := perSecondStats(c.counts, c.final)
		if (got == nil) != (c.want == nil) || got != nil && *got != *c.want {
			t.Errorf("%s: perSecondStats(%v, %v) = %+v, want %+v", c.name, c.counts, c.final, got, c.want)
		}
	}
}

// TestPerSecondTextMatchesJSON: the text table's slowest, median and
// fastest second of writes are the JSON's per_second_stats, for every
// engine, also when the final second was whole (the first engine's), which
// the text table once dropped as partial.
func TestPerSecondTextMatchesJSON(t *testing.T) {
	r := syntheticReport()
	w := &r.Results[0].Operations[0]
	w.PerSecond = []int64{100e3, 200e3, 300e3, 400e3}
	w.PerSecondStats = perSecondStats(w.PerSecond, time.Second)
	var buf bytes.Buffer
	if err := report.Write(&buf, r, report.FormatJSON); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Results []struct {
			Operations []struct {
				Stats *Spread `json:"per_second_stats"`
			} `json:"operations"`
		} `json:"results"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	text := r.Page().Text()
	table := text[strings.Index(text, "Throughput over time"):]
	lines := strings.Split(table, "\n")
	row := slices.IndexFunc(lines, func(l string) bool {
		return strings.HasPrefix(l, label(KindWrite)) && strings.Contains(l, "min/s")
	})
	if row < 0 {
		t.Fatalf("no write row in the throughput table:\n%s", table)
	}
	for k := range 3 {
		fields := strings.Fields(strings.ReplaceAll(lines[row+k], " *", ""))
		cells := fields[len(fields)-len(r.Results):]
		for i, res := range doc.Results {
			js := res.Operations[0].Stats
			want := report.RateCell([3]float64{js.Min, js.Median, js.Max}[k]).Text
			if cells[i] != want {
				t.Errorf("engine %d, row %q: text %q, JSON %q", i, lines[row+k], cells[i], want)
			}
		}
	}
	if got := doc.Results[0].Operations[0].Stats.Median; got != 250e3 {
		t.Errorf("median of a run whose last second was whole = %v, want 250k", got)
	}
}

// TestReportAllFailed: a report whose every engine failed before it ran
// an operation has no empty tables and names no setting it lacks ("multi
// over 0 series").
func TestReportAllFailed(t *testing.T) {
	res := &Result{Config: Config{Duration: time.Second, Writers: 1, Readers: 1, Series: 10, Batch: 10}}
	res.Engine, res.Error = "unopened", "open: no such library"
	text := (Report{Results: []*Result{res}}).Page().Text()
	for _, absent := range []string{"Latency (", "Throughput over time", "Verification (", "multi over 0"} {
		if strings.Contains(text, absent) {
			t.Errorf("report holds %q:\n%s", absent, text)
		}
	}
	if !strings.Contains(text, "open: no such library") {
		t.Errorf("report lacks the error:\n%s", text)
	}
}
