package micro

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/diskusage"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report/reporttest"
	"github.com/tsbench/storage/workload/harness"
)

// syntheticReport is a fixed report, not a real run: two engines that
// passed and one that failed twice, with figures in the range of the
// LevelDB and LmdbJava reports.
func syntheticReport() Report {
	cfg := Config{
		Benchmarks: []string{FillSeq, FillSync, ReadRandom, ReadSeq, ReadRandom, ReadCrc, FillBatch, DeleteRandom, Fill100K},
		Num:        1_000_000, KeyType: KeyInt4, Order: OrderRandom, ValueSize: 100, CompressionRatio: 0.5, Batch: 1000, Seed: 1,
		Percentiles: []float64{99.99}, Cold: true,
	}
	bench := func(name string, us float64, disk int64, mult float64) Bench {
		b := lookup(name)
		ops, vsize := int64(1_000_000), 100
		switch name {
		case FillSync:
			ops = 1000
		case Fill100K:
			ops, vsize = 1000, LargeValueSize
		}
		t := time.Duration(us * float64(ops) * 1e3)
		x := Bench{
			Name: name, Ops: ops, KeySize: 4, ValueSize: vsize,
			Time:        t,
			MicrosPerOp: us, OpsPerSec: 1e6 / us,
			Bytes: ops * int64(4+vsize),
			Cost: harness.Cost{Wall: t + t/10, CPUUser: time.Duration(float64(t) * 1.1), CPUSys: t / 10,
				IO:      &measure.IO{WriteBytes: int64(float64(ops*int64(4+vsize)) * mult), ReadBytes: 4096},
				PeakRSS: int64(60e6 * mult)},
			Latency: &measure.Percentiles{Count: ops, P50: time.Duration(us * 900), P99: time.Duration(us * 4000),
				P999: time.Duration(us * 20000), Max: time.Duration(us * 900000)},
			LatencyOf:   "op",
			Percentiles: map[string]time.Duration{"p99.99_ns": time.Duration(us * 80000)},
		}
		x.MBPerSec = float64(x.Bytes) / 1e6 / t.Seconds()
		switch {
		case b.batch:
			x.LatencyOf = "batch"
			x.Latency.Count = ops / 1000
		case b.kind == kindScan:
			x.LatencyOf = "chunk"
			x.Latency.Count = ops / ScanChunk
		}
		switch b.kind {
		case kindGet, kindScan:
			x.Cold = true
			x.IO.WriteBytes = 0
			x.Verify = &harness.Verification{Expected: ops, Read: ops}
			if b.hash == hashCRC32 {
				x.Verify.Checksum = "1c291ca3"
			}
		default:
			entries := ops
			if name == DeleteRandom {
				entries = 0
			}
			// Used below Actual (preallocated logs) and Apparent, so that a
			// report showing the wrong size differs from the golden files.
			st := NewStorage(diskusage.Usage{Used: disk, Actual: disk + disk/8, Apparent: disk + disk/20, Files: int(disk>>22) + 2}, entries, 4, vsize)
			st.Reopened = diskusage.Usage{Used: disk * 3 / 4, Actual: disk*3/4 + 64<<20, Apparent: disk*3/4 + 4096, Files: int(disk>>22) + 3}
			x.Storage = &st
		}
		return x
	}
	opts := map[string]any{"sync": "none", "cache_size": int64(64 << 20), "write_buffer_size": int64(64 << 20),
		"disable_compression": false, "max_open_files": int64(1000), "bloom_bits_per_key": int64(10)}
	rocks := &Result{Header: harness.Header{Engine: "rocksdb", Version: "8.9.1", Options: opts}, Config: cfg, Benchmarks: []Bench{
		bench(FillSeq, 1.28, 107_057_152, 1.2),
		bench(FillSync, 31.9, 221_184, 3),
		bench(ReadRandom, 7.75, 0, 0.1),
		bench(ReadSeq, 0.248, 0, 0.1),
		bench(ReadRandom, 6.9, 0, 0.1),
		bench(ReadCrc, 0.31, 0, 0.1),
		bench(FillBatch, 1.19, 106_000_000, 1.1),
		bench(DeleteRandom, 2.4, 60_000_000, 0.3),
		bench(Fill100K, 909, 52_000_000, 1),
	}}
	lmdb := &Result{Header: harness.Header{Engine: "lmdb", Version: "0.9.31", Options: opts}, Config: cfg, Benchmarks: []Bench{
		bench(FillSeq, 0.61, 171_601_920, 1.6),
		bench(FillSync, 52.7, 180_224, 4),
		bench(ReadRandom, 1.16, 0, 0.1),
		bench(ReadSeq, 0.041, 0, 0.1),
		bench(ReadRandom, 1.2, 0, 0.1),
		bench(ReadCrc, 0.12, 0, 0.1),
		bench(FillBatch, 0.52, 171_601_920, 1.6),
		bench(DeleteRandom, 1.9, 171_601_920, 0.2),
		bench(Fill100K, 480, 104_000_000, 1),
	}}
	broken := &Result{Header: harness.Header{Engine: "broken", Version: "0.1", Options: opts}, Config: cfg, Benchmarks: []Bench{
		bench(FillSeq, 0.4, 90_000_000, 1),
		bench(FillSync, 12, 100_000, 1),
		bench(ReadRandom, 0.9, 0, 0.1),
		bench(ReadSeq, 0.03, 0, 0.1),
		bench(ReadRandom, 0.9, 0, 0.1),
		bench(ReadCrc, 0.1, 0, 0.1),
		bench(FillBatch, 0.4, 90_000_000, 1),
		bench(DeleteRandom, 0.3, 1_000_000, 1),
		{Name: Fill100K, KeySize: 4, ValueSize: LargeValueSize, Error: "put of entry 377: map full"},
	}}
	v := broken.Benchmarks[2].Verify
	v.Read, v.Missing, v.Wrong, v.First = 999_998, 2, 1, "entry 12345 not found"
	broken.Benchmarks[2].Error = "micro: verification failed: " + v.Summary("entries")
	broken.Error = "readrandom: " + broken.Benchmarks[2].Error + "; fill100K: " + broken.Benchmarks[8].Error
	return Report{
		Env: harness.Environment{
			CPUModel: "Intel(R) Xeon(R) CPU @ 2.20GHz", Cores: 2, MemoryBytes: 24 << 30,
			Kernel: "6.1.0-18-amd64", OS: "linux", Arch: "amd64", GoVersion: "go1.26.8",
			DataPath: "/data/bench", Filesystem: "ext4",
			CommandLine: []string{"benchmark-storage", "-engine", "rocksdb,lmdb,broken", "-benchmarks", "fillseq,fillsync,readrandom,readseq,readrandom,readCrc,fillbatch,deleterandom,fill100K", "-key", "int4", "-percentiles", "99.99", "-cold"},
			Seed:        1, Sync: engine.SyncNone,
			EngineVersions: map[string]string{"rocksdb": "8.9.1", "lmdb": "0.9.31", "broken": "0.1"},
			EngineBuilds:   map[string]string{"rocksdb": "release, official rocksdbjni binary", "lmdb": "release, built from source with -O2 -DNDEBUG"},
			Start:          time.Date(2016, 7, 10, 12, 0, 0, 0, time.UTC),
		},
		Results: []*Result{rocks, lmdb, broken},
	}
}

func TestReportGolden(t *testing.T) {
	r := syntheticReport()
	r.RunID = "20160710T120000Z-0a1b2c"
	reporttest.Formats(t, "report", r)
}

// TestReportMarksBestAndFailures checks the main table's judgements
// rather than its layout.
func TestReportMarksBestAndFailures(t *testing.T) {
	text := syntheticReport().Page().Text()
	rows := map[string][]string{
		// The failed engine was fastest, but a failed engine is never best.
		"fillseq":      {"1.28  ", "0.610 *", "0.400"},
		"readrandom":   {"7.75  ", "1.16 *", "0.900 !"},
		"readrandom#2": {"6.90  ", "1.20 *", "0.900"},
		"fill100K":     {"909  ", "480 *", "-"},
		"Status":       {"ok", "ok", "FAILED !"},
	}
	reporttest.Cells(t, text, rows)
	for label := range rows {
		if l := reporttest.Row(t, text, label); strings.HasSuffix(l, "*") {
			t.Errorf("row %q: the failed engine is marked best: %s", label, l)
		}
	}
	for _, want := range []string{
		// Wrapped at 120 columns.
		"broken: readrandom: micro: verification failed: read 999998 of 1000000 expected entries: 2 missing, 1 wrong; first:\n    entry 12345 not found",
		"overhead          2.94% *", // rocksdb after fillseq: 107,057,152 B for 104,000,000
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}

// TestReportJSONRoundTrip checks that a Result survives JSON, as it does
// when a child process hands it to the parent.
func TestReportJSONRoundTrip(t *testing.T) {
	reporttest.JSONRoundTrip(t, syntheticReport())
}

// TestReportHTML renders the HTML report in a real browser: it must be
// self-contained and draw something.
func TestReportHTML(t *testing.T) {
	page := syntheticReport().Page().HTML()
	reporttest.SelfContained(t, page)
	reporttest.Screenshot(t, "micro", page, 1280, 4600)
}

// TestReportRepeated checks that repeated runs merge into medians with
// their spread.
func TestReportRepeated(t *testing.T) {
	r := syntheticReport()
	var runs []*Result
	for k, scale := range []float64{1, 2, 4} {
		for _, res := range r.Results {
			c := *res
			c.Repeat = k + 1
			c.Benchmarks = slices.Clone(res.Benchmarks)
			for i := range c.Benchmarks {
				c.Benchmarks[i].MicrosPerOp *= scale
			}
			runs = append(runs, &c)
		}
	}
	r.Results = runs
	text := r.Page().Text()
	reporttest.Fits(t, text)
	if !strings.Contains(text, "Each engine ran 3 times") || !strings.Contains(text, "±100%") {
		t.Errorf("no medians and spreads:\n%s", text)
	}
	var b bytes.Buffer
	if err := r.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	reporttest.CSVNumbers(t, b.Bytes())
	if !strings.Contains(b.String(), ",median,") {
		t.Error("the CSV has no summary rows")
	}
}

// TestReportForks checks a run with -forks: a JVM engine's result, as
// the worker sends it (iterations, no error), gets its error when it is
// decoded, and the report shows the mean ± error beside a Go engine's
// single pass, which it names as one.
func TestReportForks(t *testing.T) {
	cfg := Config{Benchmarks: []string{Write}, Num: 1000, KeyType: KeyInt4, Order: OrderSeq, ValueSize: 100,
		CompressionRatio: 1, Batch: 1000, Seed: 1, Forks: 2, WarmupIterations: 1, Iterations: 2}
	var forked Bench
	worker := `{"name":"write","ops":4000,"time_ns":10000000,"us_per_op":2.5,"forks":2,"iterations_us_per_op":[1,2,3,4]}`
	if err := json.Unmarshal([]byte(worker), &forked); err != nil {
		t.Fatal(err)
	}
	// MeanError(1, 2, 3, 4): 12.924 * sqrt(5/3) / 2.
	if math.Abs(forked.MicrosPerOpError-8.3424) > 0.001 {
		t.Errorf("decoded error %g, want 8.3424", forked.MicrosPerOpError)
	}
	single := Bench{Name: Write, Ops: 1000, Time: 3 * time.Millisecond, MicrosPerOp: 3}
	rep := Report{Results: []*Result{
		{Header: harness.Header{Engine: "lmdbjava"}, Config: cfg, Benchmarks: []Bench{forked}},
		{Header: harness.Header{Engine: "pebble"}, Config: cfg, Benchmarks: []Bench{single}},
	}}
	text := rep.Page().Text()
	reporttest.Cells(t, text, map[string][]string{"write": {"2.50 ± 8.34 *", "3.00"}})
	for _, want := range []string{"each benchmark in 2 fresh JVMs, each 1 untimed then 2 measured iterations", "-forks does not apply to pebble: one pass each."} {
		if !strings.Contains(strings.ReplaceAll(text, "\n", " "), want) {
			t.Errorf("the report lacks %q:\n%s", want, text)
		}
	}
}
