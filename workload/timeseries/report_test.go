package timeseries

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/internal/report/reporttest"
	"github.com/tsbench/storage/workload/harness"
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
			Cost: harness.Cost{
				Wall:    t + t/8,
				CPUUser: time.Duration(float64(t) * 1.2),
				CPUSys:  t / 5,
				IO:      &measure.IO{ReadBytes: int64(1e9 * mult), WriteBytes: int64(7e9 * mult), CancelledWriteBytes: 1 << 20},
				PeakRSS: int64(300e6 * mult),
				Memory:  &measure.MemoryPeaks{Private: int64(200e6 * mult), File: int64(100e6 * mult), Shared: 4 << 20, Go: 30e6, Samples: 50},
			},
			Settle:       time.Duration(float64(3*time.Second) * mult),
			LogicalBytes: pts * 35,
			Disk:         diskusage.Usage{Used: disk, Actual: disk + 3*70<<20, Apparent: disk + disk/10, Files: int(disk >> 26)}, // preallocated logs: the wrong size shows
			OpenFDs:      int(120 * mult),
		}
		st.LivePoints = map[string]int64{StepWrite: 1e8, StepQuery: 1e8, StepDelete: 5e7, StepCompact: 5e7, StepQueryAfterDelete: 5e7, StepWriteMore: 1e8}[name]
		st.BytesPerPoint = float64(disk) / float64(st.LivePoints)
		if name != StepCompact {
			st.PointsPerSec = float64(pts) / t.Seconds()
			st.MicrosPerPoint = t.Seconds() * 1e6 / float64(pts)
		}
		switch name {
		case StepQuery, StepQueryAfterDelete:
			st.Verify = &harness.Verification{Expected: pts, Read: pts}
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
		Header: harness.Header{Engine: "rocksdb", Version: "8.9.1",
			Options: withTable(sharedOptions(), "rocksdb", map[string]any{"block_size": int64(4096), "max_background_jobs": int64(4)})},
		Config: cfg,
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
		Header: harness.Header{Engine: "lmdb", Version: "0.9.31",
			Options: withTable(sharedOptions(), "lmdb", map[string]any{"map_size": int64(1 << 30), "growth_factor": 2.0})},
		Config: cfg,
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
		Header: harness.Header{Engine: "broken", Version: "0.1",
			Options: sharedOptions()},
		Config: cfg,
		Steps: []Step{
			step(StepWrite, 10*time.Minute+45410*time.Millisecond, 3_435_973_837, 1),
			step(StepQuery, 13*time.Minute+49010*time.Millisecond, 3_435_973_837, 0.1),
			step(StepDelete, 7*time.Second, 3_435_973_837, 0.1),
		},
	}
	// Engines report what they know of their own work: rocksdb every
	// metric, broken its cache alone, lmdb nothing.
	for i := range rocks.Steps {
		st := &rocks.Steps[i]
		n := int64(i + 1)
		st.EngineMetrics = engine.Metrics{
			engine.MetricCompactBytes: 2_800_000_000 / n, engine.MetricCompactTime: int64(95*time.Second) / n,
			engine.MetricStalls: 12 / n, engine.MetricStallTime: int64(4200*time.Millisecond) / n,
			engine.MetricCacheHits: 9_000_000 * n, engine.MetricCacheMisses: 310_000 * n, engine.MetricMemtableBytes: 48 << 20 / n,
		}
	}
	for i := range broken.Steps {
		broken.Steps[i].EngineMetrics = engine.Metrics{engine.MetricCacheHits: 1_000_000, engine.MetricCacheMisses: 55_000}
	}
	q := &broken.Steps[1]
	q.Verify = &harness.Verification{Expected: 1e8, Read: 1e8 - 2, Missing: 3, Unexpected: 1, Wrong: 2, First: "series 17: 3 points missing before seq 8500018"}
	q.Error = "workload: verification failed: " + q.Verify.Summary("points")
	broken.Steps[2].Error = "series 0: delete range: disk full"
	broken.Steps[2].IO = nil
	broken.Steps[2].WriteAmp = 0
	broken.Error = "query: " + q.Error + "; delete: " + broken.Steps[2].Error
	return Report{
		Env: harness.Environment{
			CPUModel: "Intel(R) Xeon(R) CPU @ 2.20GHz", Cores: 2, MemoryBytes: 24 << 30,
			Kernel: "6.1.0-18-amd64", OS: "linux", Arch: "amd64", GoVersion: "go1.26.8",
			DataPath: "/data/bench", Filesystem: "ext4",
			CommandLine: []string{"benchmark-storage", "-engine", "rocksdb,lmdb,broken", "-points", "100M", "-series", "500k", "-settle"},
			Seed:        42, Sync: engine.SyncNone,
			EngineVersions: map[string]string{"rocksdb": "8.9.1", "lmdb": "0.9.31", "broken": "0.1"},
			EngineBuilds:   map[string]string{"rocksdb": "release, official rocksdbjni binary", "lmdb": "release, built from source with -O2 -DNDEBUG"},
			Start:          time.Date(2014, 6, 20, 12, 0, 0, 0, time.UTC),
		},
		Results: []*Result{rocks, lmdb, broken},
	}
}

// sharedOptions are the shared options with their defaults, as
// engine.Effective records them.
func sharedOptions() map[string]any {
	return map[string]any{"sync": "none", "cache_size": int64(64 << 20), "write_buffer_size": int64(64 << 20),
		"disable_compression": false, "max_open_files": int64(1000), "bloom_bits_per_key": int64(10)}
}

// withTable adds an engine's own options to o.
func withTable(o map[string]any, engine string, own map[string]any) map[string]any {
	o[engine] = own
	return o
}

func TestReportGolden(t *testing.T) {
	r := syntheticReport()
	r.RunID = "20140620T120000Z-0a1b2c"
	reporttest.Formats(t, "report", r)
}

// repeated is r with every engine run three times: the second run as
// r's, the first 10% faster and the third 30% slower and 2% larger.
func repeated(r Report) Report {
	var out []*Result
	for k, scale := range []float64{0.9, 1, 1.3} {
		for _, res := range r.Results {
			c := *res
			c.Repeat = k + 1
			c.Steps = slices.Clone(res.Steps)
			for i := range c.Steps {
				st := &c.Steps[i]
				st.Time = time.Duration(float64(st.Time) * scale)
				if k == 2 {
					st.Disk.Used += st.Disk.Used / 50
				}
				if st.PointsPerSec > 0 {
					st.PointsPerSec /= scale
				}
			}
			out = append(out, &c)
		}
	}
	r.Results = out
	return r
}

// TestReportRepeated checks a report of engines run three times: every
// format shows medians and spreads, and the JSON and CSV carry them.
func TestReportRepeated(t *testing.T) {
	r := repeated(syntheticReport())
	r.RunID = "20140620T120000Z-0a1b2c"
	reporttest.Formats(t, "repeated", r)
	text := r.Page().Text()
	reporttest.Cells(t, text, map[string][]string{
		"Write 100M values": {"21m18.6s ±30% *", "1h13m21.3s ±30%"},
		"DB size":           {"3.20 GiB ±2% *"},
		"Status":            {"ok", "FAILED !"},
	})
	if !strings.Contains(text, "Each engine ran 3 times") {
		t.Error("the introduction does not say how many times engines ran")
	}
	var b bytes.Buffer
	if err := report.Write(&b, r, report.FormatJSON); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Results []*Result
		Summary []struct {
			Runs  int
			Steps []report.PartStats
		}
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 9 || len(out.Summary) != 3 || out.Summary[0].Runs != 3 {
		t.Fatalf("JSON has %d results and summary %+v, want 9 and 3 engines of 3 runs", len(out.Results), out.Summary)
	}
	var took *report.FigureStats
	for i, f := range out.Summary[0].Steps[0].Figures {
		if f.Metric == "time_ns" {
			took = &out.Summary[0].Steps[0].Figures[i]
		}
	}
	want := float64(21*time.Minute + 18600*time.Millisecond)
	if took == nil || took.N != 3 || took.Median != want || took.Min != float64(time.Duration(want*0.9)) || took.Max != float64(time.Duration(want*1.3)) {
		t.Errorf("summary of rocksdb's write time = %+v, want the median %v of 3 runs, from 0.9 to 1.3 times it", took, want)
	}
}

// TestReportManyEngines checks that a report of eight engines still fits
// 120 columns: wide tables are split.
func TestReportManyEngines(t *testing.T) {
	r := repeated(syntheticReport())
	var many []*Result
	for i := range 8 {
		for _, res := range r.Results[:2] {
			c := *res
			c.Engine = fmt.Sprintf("%s-%d", res.Engine, i)
			many = append(many, &c)
		}
	}
	r.Results = many
	text := r.Page().Text()
	reporttest.Fits(t, text)
	for i := range 8 {
		if !strings.Contains(text, fmt.Sprintf("lmdb-%d", i)) {
			t.Errorf("engine lmdb-%d is missing", i)
		}
	}
}

// TestReportMarksBestAndFailures checks the main table's judgements
// rather than its layout.
func TestReportMarksBestAndFailures(t *testing.T) {
	text := syntheticReport().Page().Text()
	reporttest.Cells(t, text, map[string][]string{
		// The failed engine wrote fastest, but a failed engine is never best.
		"Write 100M values": {"21m18.6s *", "1h13m21.3s  ", "10m45.41s"},
		"Query 100M values": {"2m44.99s *", "5m24.8s  ", "13m49.01s !"},
		"Delete 50M values": {"1m53.84s *", "6m15.98s  ", "7s !"},
		"Compaction":        {"3m20.27s  ", "1.548µs *", "-"},
		"DB size":           {"3.20 GiB *", "7.60 GiB  ", "3.20 GiB"}, // used bytes after the write
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
	crashed := &Result{Header: harness.Header{Engine: "crashed"}, Error: "child process: signal: killed"}
	r.Results = append([]*Result{nil, crashed}, r.Results...)
	text := r.Page().Text()
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

// TestReportHTML renders the HTML report of engines run three times in a
// real browser: it must be self-contained and draw something.
func TestReportHTML(t *testing.T) {
	page := repeated(syntheticReport()).Page().HTML()
	reporttest.SelfContained(t, page)
	reporttest.Screenshot(t, "workload", page, 1280, 4600)
}

func TestReportGoBenchRepeated(t *testing.T) {
	var b bytes.Buffer
	if err := repeated(syntheticReport()).WriteGoBench(&b); err != nil {
		t.Fatal(err)
	}
	// One line per run of every step that passed: benchstat sees n=3.
	if n := strings.Count(b.String(), "BenchmarkTimeSeries/engine=rocksdb/op=write\t"); n != 3 {
		t.Errorf("%d lines for rocksdb's write step, want 3:\n%s", n, b.String())
	}
}

// TestReportHTMLEveryEngineItsColor renders eleven engines run three
// times, every Go engine as -engine all -count 3 runs them, and counts in
// the screenshot the colors a reader tells them apart by: eleven.
func TestReportHTMLEveryEngineItsColor(t *testing.T) {
	base := syntheticReport()
	var r Report
	r.Env = base.Env
	for i := range 11 {
		res := *base.Results[0]
		res.Engine = fmt.Sprintf("engine%02d", i)
		r.Results = append(r.Results, &res)
	}
	page := repeated(r).Page().HTML()
	png := reporttest.Screenshot(t, "eleven", page, 1280, 1400)
	var colors []string
	for i := range 11 {
		colors = append(colors, report.Color(i))
	}
	if n := reporttest.ColorsIn(t, png, colors); n != 11 {
		t.Errorf("the screenshot shows %d of the 11 engines' colors", n)
	}
}

// TestReportClientCPU: an engine working in processes of its own (a
// cluster's members) gets a row with the benchmark process's own share of
// the CPU time, the client's.
func TestReportClientCPU(t *testing.T) {
	r := syntheticReport()
	st := &r.Results[0].Steps[0]
	total := st.CPUUser + st.CPUSys
	st.Processes = &harness.EngineProcesses{Count: 3, CPUUser: total - 90*time.Second, CPUSys: 0}
	if text := r.Page().Text(); !regexp.MustCompile(`of it, this process +1m30s +- +-`).MatchString(text) {
		t.Errorf("no row of the benchmark process's CPU time, 1m30s for the first engine's write:\n%s", text)
	}
}
