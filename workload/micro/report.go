package micro

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
)

// Report is the results of one or more engines on the same benchmarks,
// with the machine they ran on. An engine run several times (-count) has
// one Result per run, told apart by Repeat; every format then shows the
// median of each figure and its spread.
// Its fields, RunID, Env and Results, are results.Report's.
type Report results.Report[Result]

// WriteJSON writes the report, every figure of every run and the
// environment, as indented JSON; when an engine ran more than once,
// "summary" holds the median and spread of each figure.
func (r Report) WriteJSON(w io.Writer) error {
	return r.set().WriteJSON(w, results.Report[Result](r), "benchmarks", rowLabels(r.config().Benchmarks))
}

// Samples lists every number of every benchmark of each engine over its
// runs, for comparing two reports.
func (r Report) Samples() []report.Samples {
	set := r.set()
	return set.Samples(rowLabels(r.config().Benchmarks), func(label string) string { return label }, set.Figures)
}

// set gathers the results by engine.
func (r Report) set() *results.Set[Result] { return results.New(schema, r.Results) }

// schema tells the report plumbing how to read a Result: a benchmark is a
// part of its own, named by its label.
var schema = results.Schema[Result]{
	Header: func(res *Result) *harness.Header { return &res.Header },
	Error:  func(res *Result) string { return res.Error },
	Ran:    func(res *Result) bool { return len(res.Config.Benchmarks) > 0 },
	Run: func(res *Result) []report.Figure {
		return results.RunFigures(res.Header, res.Error, report.Flatten("config", res.Config))
	},
	Parts: func(res *Result) []results.Part {
		labels := rowLabels(res.Config.Benchmarks)
		var out []results.Part
		for i := range res.Benchmarks {
			b := &res.Benchmarks[i]
			label := b.Name
			if i < len(labels) {
				label = labels[i]
			}
			out = append(out, results.Part{Name: label, Figures: report.Flatten("", b)})
		}
		return out
	},
}

// config is the workload the report's engines ran.
func (r Report) config() Config {
	return results.Config(r.set(), func(res *Result) Config { return res.Config })
}

func (r Report) intro(set *results.Set[Result]) string {
	c := r.config()
	cold := ""
	if c.Cold {
		cold = ", reads cold (the store's pages dropped from the page cache first)"
	}
	s := fmt.Sprintf("Micro benchmarks: %s entries per fill, %s keys of %d B, values of %d B compressible to %g, "+
		"batches of %d, write order %s, seed %d%s.\n"+
		"µs/op is engine time: generating keys and values and verifying reads are excluded. "+
		"MB = 10^6 bytes; sizes in binary units.\n"+
		"Best of each row marked *; ! marks a failed benchmark (see Errors).",
		harness.Count(c.Num), c.KeyType, c.KeyType.Size(), c.ValueSize, c.CompressionRatio, c.Batch, c.Order, c.Seed, cold)
	if c.Forks > 0 {
		s += fmt.Sprintf("\nJVM engines as JMH measures them: each benchmark in %d fresh JVMs, each %d untimed then %d measured iterations; "+
			"µs/op is the mean of the measured iterations ± the half-width of its %g%% confidence interval (JMH's Error).",
			c.Forks, c.WarmupIterations, c.Iterations, Confidence*100)
		var single []string
		for _, res := range set.All {
			if !slices.Contains(single, res.Engine) && !slices.ContainsFunc(res.Benchmarks, func(b Bench) bool { return b.Forks > 0 }) {
				single = append(single, res.Engine)
			}
		}
		if len(single) > 0 {
			s += " -forks does not apply to " + strings.Join(single, ", ") + ": one pass each."
		}
	}
	for _, n := range r.setups(set) {
		s += "\nNote: " + n
	}
	return s + set.RepeatNote()
}

// setups lists the untimed preparations benchmarks needed, once each.
func (r Report) setups(set *results.Set[Result]) []string {
	var out []string
	labels := rowLabels(r.config().Benchmarks)
	for i := range labels {
		for _, res := range set.All {
			if i < len(res.Benchmarks) && res.Benchmarks[i].Setup != "" {
				out = append(out, labels[i]+": "+res.Benchmarks[i].Setup+".")
				break
			}
		}
	}
	return out
}

// rowLabels names the benchmarks of a run: a name that repeats is
// numbered from its second run on ("readrandom#2"), so that each label
// is distinct and can stand in a Go benchmark name.
func rowLabels(names []string) []string {
	seen := map[string]int{}
	out := make([]string, len(names))
	for i, n := range names {
		seen[n]++
		out[i] = n
		if seen[n] > 1 {
			out[i] += "#" + strconv.Itoa(seen[n])
		}
	}
	return out
}

// benchOf finds benchmark i in a run.
func benchOf(i int) results.Of[Result, Bench] {
	return results.Of[Result, Bench]{Get: func(res *Result) *Bench {
		if i < len(res.Benchmarks) {
			return &res.Benchmarks[i]
		}
		return nil
	}, Error: func(b *Bench) string { return b.Error }}
}

// Page lays the report out for every format (report.Write): µs/op with
// benchmarks as rows and engines as columns, the best of each row
// marked, then the errors, throughput, latency, storage, cost and
// verification tables, and the environment; the HTML form charts each
// benchmark's figures per engine.
func (r Report) Page() report.Page {
	set := r.set()
	engines := set.Engines()
	names := r.config().Benchmarks
	labels := rowLabels(names)
	grouped := func(title string, label func(i int) string, rows func(i int) bool, metrics []metric) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Benchmark", "Metric"), Labels: 2}
		for i := range names {
			if rows(i) {
				t.Rows = append(t.Rows, results.MetricRows(set, label(i), benchOf(i), metrics)...)
			}
		}
		return t
	}
	plain := func(i int) string { return labels[i] }
	all := func(int) bool { return true }

	perOp := metric{Name: "µs/op", Best: report.LowerBest, Get: func(b *Bench) report.Cell {
		if b.Ops == 0 || b.Time == 0 {
			return report.None
		}
		c := report.Sig3Cell(b.MicrosPerOp)
		if b.MicrosPerOpError > 0 {
			c.Text += " ± " + report.Sig3(b.MicrosPerOpError)
		}
		return c
	}}
	main := report.Table{Head: report.Head(engines, "Benchmark"), Labels: 1}
	for i := range names {
		main.Rows = append(main.Rows, report.Row{Labels: []string{labels[i]}, Cells: results.MetricCells(set, benchOf(i), perOp), Best: perOp.Best})
	}
	main.Rows = append(main.Rows, report.StatusRow(engines))

	rate := func(get func(*Bench) float64) func(*Bench) report.Cell {
		return func(b *Bench) report.Cell {
			if v := get(b); v > 0 {
				return report.RateCell(v)
			}
			return report.None
		}
	}
	throughput := []metric{
		{Name: "ops/s", Best: report.HigherBest, Get: rate(func(b *Bench) float64 { return b.OpsPerSec })},
		{Name: "MB/s", Best: report.HigherBest, Get: func(b *Bench) report.Cell {
			if b.MBPerSec <= 0 {
				return report.None
			}
			return report.Sig3Cell(b.MBPerSec)
		}},
	}
	latency := append(results.LatencyMetrics(func(b *Bench) *measure.Percentiles { return b.Latency }),
		results.PercentileMetrics(r.config().Percentiles, func(b *Bench) map[string]time.Duration { return b.Percentiles })...)
	latencyLabel := func(i int) string {
		switch b := lookup(names[i]); {
		case b == nil:
		case b.batch:
			return labels[i] + " (per batch)"
		case b.kind == kindScan:
			return fmt.Sprintf("%s (per %d entries)", labels[i], ScanChunk)
		}
		return labels[i]
	}
	storageOf := func(get func(*Bench) report.Cell) func(*Bench) report.Cell {
		return func(b *Bench) report.Cell {
			if b.Storage == nil {
				return report.None
			}
			return get(b)
		}
	}
	storage := []metric{
		{Name: "entries", Best: report.NoBest, Get: storageOf(func(b *Bench) report.Cell {
			c := report.CountCell(b.Storage.Entries)
			c.Text = harness.Count(b.Storage.Entries)
			return c
		})},
		{Name: "flat array", Best: report.NoBest, Get: storageOf(func(b *Bench) report.Cell { return report.Cell{Text: report.Bytes(b.Storage.Flat)} })},
		{Name: "disk used", Best: report.LowerBest, Get: storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Used) })},
		{Name: "overhead", Best: report.LowerBest, Get: storageOf(func(b *Bench) report.Cell {
			if b.Storage.Entries == 0 {
				return report.None
			}
			return report.NumberCell(b.Storage.Overhead, func(v float64) string { return fmt.Sprintf("%.2f%%", v) })
		})},
		{Name: "bytes/entry", Best: report.LowerBest, Get: storageOf(func(b *Bench) report.Cell { return results.BytesPerPointCell(b.Storage.BytesPerEntry) })},
		{Name: "disk actual", Best: report.LowerBest, Get: storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Actual) })},
		{Name: "disk apparent", Best: report.LowerBest, Get: storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Apparent) })},
		{Name: "files", Best: report.NoBest, Get: storageOf(func(b *Bench) report.Cell { return report.CountCell(int64(b.Storage.Disk.Files)) })},
		{Name: "reopened", Best: report.LowerBest, Get: storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Reopened.Used) })},
	}
	cost := []metric{
		{Name: "wall", Best: report.LowerBest, Get: func(b *Bench) report.Cell { return report.DurationCell(b.Wall) }},
		{Name: "CPU user+sys", Best: report.LowerBest, Get: func(b *Bench) report.Cell { return report.DurationCell(b.CPUUser + b.CPUSys) }},
		{Name: "written (OS)", Best: report.LowerBest, Get: func(b *Bench) report.Cell { return report.WrittenCell(b.IO) }},
		{Name: "read (OS)", Best: report.LowerBest, Get: func(b *Bench) report.Cell { return report.ReadCell(b.IO) }},
		{Name: "private peak", Best: report.LowerBest, Get: func(b *Bench) report.Cell {
			if b.Memory == nil {
				return report.None
			}
			return report.BytesCell(b.Memory.Private)
		}},
		{Name: "peak RSS (with files)", Best: report.NoBest, Get: func(b *Bench) report.Cell { return report.PeakRSSCell(b.PeakRSS) }},
	}
	verify := []metric{{Name: "checked", Best: report.NoBest, Get: func(b *Bench) report.Cell {
		v := b.Verify
		if v != nil && v.OK() && v.Expected == 0 && v.Read == 0 && b.Ops > 0 {
			return report.Cell{Text: "ok, none of " + harness.Count(b.Ops) + " found"}
		}
		return results.VerifyCell(v, "entries")
	}}}

	return set.Page("Micro benchmarks", r.intro(set), r.Env.Lines(), []report.Table{
		main,
		grouped("Throughput (from engine time)", plain, all, throughput),
		grouped(fmt.Sprintf("Latency (per operation; batch writes per batch; scans per %d entries)", ScanChunk), latencyLabel, all, latency),
		grouped("Storage after writes (measured after closing the engine, and again after reopening it, when LSM engines have turned their logs into tables; overhead of the closed store over a flat array of the keys and values)", plain,
			func(i int) bool { return has(set, i, func(b *Bench) bool { return b.Storage != nil }) }, storage),
		grouped("Cost (CPU of all threads and I/O counted by the OS, including the engine's close after a write)", plain, all, cost),
		grouped("Verification (every entry read is checked; readCrc and readXxh64 against the checksum of the data written)", plain,
			func(i int) bool { return has(set, i, func(b *Bench) bool { return b.Verify != nil }) }, verify),
		set.Settings(),
	}, r.charts(set))
}

// has reports whether a run of set has benchmark i and f is true of it.
func has(set *results.Set[Result], i int, f func(*Bench) bool) bool {
	return slices.ContainsFunc(set.All, func(x *Result) bool { return i < len(x.Benchmarks) && f(&x.Benchmarks[i]) })
}

// metric is one figure of a benchmark.
type metric = results.Metric[Bench]

// CompareMetrics are the figures benchmark-storage compare shows by
// default: what a change to an engine or its settings usually moves.
var CompareMetrics = []report.CompareMetric{
	{Metric: "time_ns", Title: "Time"},
	{Metric: "cpu_user_ns", Title: "CPU user time"},
	{Metric: "io.write_bytes", Title: "Bytes written (OS)"},
	{Metric: "storage.disk.used_bytes", Title: "Store size"},
	{Metric: "storage.bytes_per_entry", Title: "Bytes per entry"},
	{Metric: "latency.p99_ns", Title: "p99 latency"},
	{Metric: "memory.peak_private_bytes", Title: "Private memory (peak)"},
	{Metric: "memory.peak_file_bytes", Title: "Mapped files (peak)"},
	{Metric: "peak_rss_bytes", Title: "Peak RSS (with mapped files)"},
}
