package micro

import (
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload"
)

// Report is the results of one or more engines on the same benchmarks,
// with the machine they ran on.
type Report struct {
	Env     workload.Environment `json:"environment"`
	Results []*Result            `json:"results"`
}

// String renders the report for a terminal: µs/op with benchmarks as rows
// and engines as columns, the best of each row marked '*', then the
// errors, throughput, latency, storage, cost and verification tables, and
// the environment.
func (r Report) String() string { return r.page().Text() }

// Markdown renders the same report as GitHub-flavored Markdown, the best
// of each row in bold.
func (r Report) Markdown() string { return r.page().Markdown() }

// WriteJSON writes the report, every figure and the environment, as
// indented JSON.
func (r Report) WriteJSON(w io.Writer) error { return report.WriteJSON(w, r) }

// results returns the non-nil results, so that a caller's gap cannot
// crash the rendering.
func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

// config is what the report's engines ran: the config of the first result
// that has one (an engine whose process crashed has none).
func (r Report) config() Config {
	for _, res := range r.results() {
		if len(res.Config.Benchmarks) > 0 {
			return res.Config
		}
	}
	return Config{}
}

func (r Report) intro() string {
	c := r.config()
	s := fmt.Sprintf("Micro benchmarks: %s entries per fill, %s keys of %d B, values of %d B compressible to %g, "+
		"batches of %d, write order %s, seed %d.\n"+
		"µs/op is engine time: generating keys and values and verifying reads are excluded. "+
		"MB = 10^6 bytes; sizes in binary units.\n"+
		"Best of each row marked *; ! marks a failed benchmark (see Errors).",
		workload.Count(c.Num), c.KeyType, c.KeyType.Size(), c.ValueSize, c.CompressionRatio, c.Batch, c.Order, c.Seed)
	for _, n := range r.setups() {
		s += "\nNote: " + n
	}
	return s
}

// setups lists the untimed preparations benchmarks needed, once each.
func (r Report) setups() []string {
	var out []string
	labels := rowLabels(r.config().Benchmarks)
	for i := range labels {
		for _, res := range r.results() {
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

// page lays the report out: the main table, then the extra ones.
func (r Report) page() report.Page {
	res := r.results()
	engines := make([]report.Engine, len(res))
	for i, x := range res {
		engines[i] = report.Engine{Name: x.Engine, Error: x.Error}
	}
	names := r.config().Benchmarks
	labels := rowLabels(names)
	cells := func(i int, m metric) []report.Cell {
		out := make([]report.Cell, len(res))
		for j, x := range res {
			if i >= len(x.Benchmarks) {
				out[j] = report.None
				continue
			}
			b := &x.Benchmarks[i]
			out[j] = report.Judge(m.get(b), b.Error, x.Error)
		}
		return out
	}
	// has reports whether any engine has the figure for benchmark i.
	has := func(i int, f func(*Bench) bool) bool {
		for _, x := range res {
			if i < len(x.Benchmarks) && f(&x.Benchmarks[i]) {
				return true
			}
		}
		return false
	}
	grouped := func(title string, label func(i int) string, rows func(i int) bool, metrics []metric) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Benchmark", "Metric"), Labels: 2}
		for i := range names {
			if !rows(i) {
				continue
			}
			for k, m := range metrics {
				l := ""
				if k == 0 {
					l = label(i)
				}
				t.Rows = append(t.Rows, report.Row{Labels: []string{l, m.name}, Cells: cells(i, m), Best: m.best})
			}
		}
		return t
	}
	plain := func(i int) string { return labels[i] }
	all := func(int) bool { return true }

	perOp := metric{"µs/op", report.LowerBest, func(b *Bench) report.Cell {
		if b.Ops == 0 || b.Time == 0 {
			return report.None
		}
		return report.Sig3Cell(b.MicrosPerOp)
	}}
	main := report.Table{Head: report.Head(engines, "Benchmark"), Labels: 1}
	for i := range names {
		main.Rows = append(main.Rows, report.Row{Labels: []string{labels[i]}, Cells: cells(i, perOp), Best: perOp.best})
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
		{"ops/s", report.HigherBest, rate(func(b *Bench) float64 { return b.OpsPerSec })},
		{"MB/s", report.HigherBest, func(b *Bench) report.Cell {
			if b.MBPerSec <= 0 {
				return report.None
			}
			return report.Sig3Cell(b.MBPerSec)
		}},
	}
	var latency []metric
	for _, p := range report.Percentiles() {
		latency = append(latency, metric{p.Name, report.LowerBest, func(b *Bench) report.Cell { return p.Cell(b.Latency) }})
	}
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
		{"entries", report.NoBest, storageOf(func(b *Bench) report.Cell { return report.Cell{Text: workload.Count(b.Storage.Entries)} })},
		{"flat array", report.NoBest, storageOf(func(b *Bench) report.Cell { return report.Cell{Text: report.Bytes(b.Storage.Flat)} })},
		{"disk actual", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Actual) })},
		{"overhead", report.LowerBest, storageOf(func(b *Bench) report.Cell {
			if b.Storage.Entries == 0 {
				return report.None
			}
			return report.Cell{Text: fmt.Sprintf("%.2f%%", b.Storage.Overhead), Value: b.Storage.Overhead, Ranked: true}
		})},
		{"disk apparent", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Disk.Apparent) })},
		{"files", report.NoBest, storageOf(func(b *Bench) report.Cell { return report.Cell{Text: strconv.Itoa(b.Storage.Disk.Files)} })},
		{"reopened", report.LowerBest, storageOf(func(b *Bench) report.Cell { return report.BytesCell(b.Storage.Reopened.Actual) })},
	}
	cost := []metric{
		{"wall", report.LowerBest, func(b *Bench) report.Cell { return report.DurationCell(b.Wall) }},
		{"CPU user+sys", report.LowerBest, func(b *Bench) report.Cell { return report.DurationCell(b.CPUUser + b.CPUSys) }},
		{"written (OS)", report.LowerBest, func(b *Bench) report.Cell { return report.WrittenCell(b.IO) }},
		{"read (OS)", report.LowerBest, func(b *Bench) report.Cell { return report.ReadCell(b.IO) }},
		{"peak RSS", report.LowerBest, func(b *Bench) report.Cell { return report.PeakRSSCell(b.PeakRSS) }},
	}
	verify := []metric{{"checked", report.NoBest, func(b *Bench) report.Cell {
		v := b.Verify
		switch {
		case v == nil:
			return report.None
		case !v.OK():
			return report.Cell{Text: fmt.Sprintf("%d missing, %d wrong of %s", v.Missing, v.Wrong, workload.Count(v.Expected))}
		case v.Expected == 0 && v.Read == 0 && b.Ops > 0:
			return report.Cell{Text: "ok, none of " + workload.Count(b.Ops) + " found"}
		}
		return report.Cell{Text: "ok, " + workload.Count(v.Read) + " entries"}
	}}}

	return report.Page{Intro: r.intro(), Engines: engines, Environment: r.Env.Lines(), Tables: []report.Table{
		main,
		grouped("Throughput (from engine time)", plain, all, throughput),
		grouped(fmt.Sprintf("Latency (per operation; batch writes per batch; scans per %d entries)", ScanChunk), latencyLabel, all, latency),
		grouped("Storage after writes (measured after closing the engine, and again after reopening it, when LSM engines have turned their logs into tables; overhead of the closed store over a flat array of the keys and values)", plain,
			func(i int) bool { return has(i, func(b *Bench) bool { return b.Storage != nil }) }, storage),
		grouped("Cost (CPU of all threads and I/O counted by the OS, including the engine's close after a write)", plain, all, cost),
		grouped("Verification (every entry read is checked; readCrc and readXxh64 against the checksum of the data written)", plain,
			func(i int) bool { return has(i, func(b *Bench) bool { return b.Verify != nil }) }, verify),
	}}
}

// metric is one figure of a benchmark.
type metric struct {
	name string
	best report.Better
	get  func(*Bench) report.Cell
}
