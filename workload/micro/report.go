package micro

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

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
func (r Report) String() string {
	var b strings.Builder
	b.WriteString(r.intro() + "\n\n")
	tables := r.tables()
	tables[0].text(&b)
	if errs := r.errors(); len(errs) > 0 {
		b.WriteString("\nErrors:\n")
		for _, e := range errs {
			b.WriteString("  " + e + "\n")
		}
	}
	for _, t := range tables[1:] {
		b.WriteString("\n")
		t.text(&b)
	}
	b.WriteString("\nEnvironment\n")
	for _, kv := range envLines(r.Env) {
		fmt.Fprintf(&b, "  %-12s %s\n", kv[0], kv[1])
	}
	return b.String()
}

// Markdown renders the same report as GitHub-flavored Markdown, the best
// of each row in bold.
func (r Report) Markdown() string {
	var b strings.Builder
	b.WriteString(r.intro() + "\n\n")
	tables := r.tables()
	tables[0].markdown(&b)
	if errs := r.errors(); len(errs) > 0 {
		b.WriteString("\n**Errors**\n\n")
		for _, e := range errs {
			b.WriteString("- " + e + "\n")
		}
	}
	for _, t := range tables[1:] {
		b.WriteString("\n")
		t.markdown(&b)
	}
	b.WriteString("\n### Environment\n\n")
	for _, kv := range envLines(r.Env) {
		fmt.Fprintf(&b, "- %s: %s\n", kv[0], kv[1])
	}
	return b.String()
}

// WriteJSON writes the report, every figure and the environment, as
// indented JSON.
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// results returns the non-nil results.
func (r Report) results() []*Result {
	var out []*Result
	for _, res := range r.Results {
		if res != nil {
			out = append(out, res)
		}
	}
	return out
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

// errors lists each failed engine's error.
func (r Report) errors() []string {
	var errs []string
	for _, res := range r.results() {
		if res.Error != "" {
			errs = append(errs, res.Engine+": "+res.Error)
		}
	}
	return errs
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

// metric is one figure of a benchmark.
type metric struct {
	name string
	dir  better
	get  func(*Bench) cell
}

func (r Report) tables() []table {
	res := r.results()
	names := r.config().Benchmarks
	labels := rowLabels(names)
	head := func(h ...string) []string {
		for _, x := range res {
			h = append(h, x.Engine)
		}
		return h
	}
	cells := func(i int, m metric) []cell {
		out := make([]cell, len(res))
		for j, x := range res {
			if i >= len(x.Benchmarks) {
				out[j] = none
				continue
			}
			b := &x.Benchmarks[i]
			out[j] = m.get(b)
			out[j].failed = b.Error != "" && out[j].text != "-"
			// An engine that failed anywhere is shown but never crowned.
			out[j].valued = out[j].valued && x.Error == ""
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
	grouped := func(title string, label func(i int) string, rows func(i int) bool, metrics []metric) table {
		t := table{title: title, head: head("Benchmark", "Metric"), labels: 2}
		for i := range names {
			if !rows(i) {
				continue
			}
			for k, m := range metrics {
				l := ""
				if k == 0 {
					l = label(i)
				}
				t.rows = append(t.rows, row{labels: []string{l, m.name}, cells: cells(i, m), dir: m.dir})
			}
		}
		t.markBest()
		return t
	}
	plain := func(i int) string { return labels[i] }
	all := func(int) bool { return true }

	perOp := metric{"µs/op", lowerBest, func(b *Bench) cell {
		if b.Ops == 0 || b.Time == 0 {
			return none
		}
		return cell{text: sig3(b.MicrosPerOp), value: b.MicrosPerOp, valued: true}
	}}
	main := table{head: head("Benchmark"), labels: 1}
	for i := range names {
		main.rows = append(main.rows, row{labels: []string{labels[i]}, cells: cells(i, perOp), dir: lowerBest})
	}
	status := row{labels: []string{"Status"}}
	for _, x := range res {
		c := cell{text: "ok"}
		if x.Error != "" {
			c = cell{text: "FAILED", failed: true}
		}
		status.cells = append(status.cells, c)
	}
	main.rows = append(main.rows, status)
	main.markBest()

	rate := func(get func(*Bench) float64) func(*Bench) cell {
		return func(b *Bench) cell {
			if v := get(b); v > 0 {
				return cell{text: humanRate(v), value: v, valued: true}
			}
			return none
		}
	}
	throughput := []metric{
		{"ops/s", higherBest, rate(func(b *Bench) float64 { return b.OpsPerSec })},
		{"MB/s", higherBest, func(b *Bench) cell {
			if b.MBPerSec <= 0 {
				return none
			}
			return cell{text: sig3(b.MBPerSec), value: b.MBPerSec, valued: true}
		}},
	}
	lat := func(get func(*Bench) time.Duration) func(*Bench) cell {
		return func(b *Bench) cell {
			if b.Latency == nil || b.Latency.Count == 0 {
				return none
			}
			return durationCell(get(b))
		}
	}
	latency := []metric{
		{"p50", lowerBest, lat(func(b *Bench) time.Duration { return b.Latency.P50 })},
		{"p99", lowerBest, lat(func(b *Bench) time.Duration { return b.Latency.P99 })},
		{"p99.9", lowerBest, lat(func(b *Bench) time.Duration { return b.Latency.P999 })},
		{"max", lowerBest, lat(func(b *Bench) time.Duration { return b.Latency.Max })},
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
	storageOf := func(get func(*Bench) cell) func(*Bench) cell {
		return func(b *Bench) cell {
			if b.Storage == nil {
				return none
			}
			return get(b)
		}
	}
	storage := []metric{
		{"entries", noBest, storageOf(func(b *Bench) cell { return cell{text: workload.Count(b.Storage.Entries)} })},
		{"flat array", noBest, storageOf(func(b *Bench) cell { return cell{text: humanBytes(b.Storage.Flat)} })},
		{"disk actual", lowerBest, storageOf(func(b *Bench) cell { return bytesCell(b.Storage.Disk.Actual) })},
		{"overhead", lowerBest, storageOf(func(b *Bench) cell {
			if b.Storage.Entries == 0 {
				return none
			}
			return cell{text: fmt.Sprintf("%.2f%%", b.Storage.Overhead), value: b.Storage.Overhead, valued: true}
		})},
		{"disk apparent", lowerBest, storageOf(func(b *Bench) cell { return bytesCell(b.Storage.Disk.Apparent) })},
		{"files", noBest, storageOf(func(b *Bench) cell { return cell{text: strconv.Itoa(b.Storage.Disk.Files)} })},
		{"reopened", lowerBest, storageOf(func(b *Bench) cell { return bytesCell(b.Storage.Reopened.Actual) })},
	}
	ioCell := func(get func(*Bench) int64) func(*Bench) cell {
		return func(b *Bench) cell {
			if b.IO == nil {
				return cell{text: "n/a"}
			}
			return bytesCell(get(b))
		}
	}
	cost := []metric{
		{"wall", lowerBest, func(b *Bench) cell { return durationCell(b.Wall) }},
		{"CPU user+sys", lowerBest, func(b *Bench) cell { return durationCell(b.CPUUser + b.CPUSys) }},
		{"written (OS)", lowerBest, ioCell(func(b *Bench) int64 { return b.IO.WriteBytes })},
		{"read (OS)", lowerBest, ioCell(func(b *Bench) int64 { return b.IO.ReadBytes })},
		{"peak RSS", lowerBest, func(b *Bench) cell {
			if b.PeakRSS == 0 {
				return cell{text: "n/a"}
			}
			return bytesCell(b.PeakRSS)
		}},
	}
	verify := []metric{{"checked", noBest, func(b *Bench) cell {
		v := b.Verify
		switch {
		case v == nil:
			return none
		case !v.OK():
			return cell{text: fmt.Sprintf("%d missing, %d wrong of %s", v.Missing, v.Wrong, workload.Count(v.Expected))}
		case v.Expected == 0 && v.Read == 0 && b.Ops > 0:
			return cell{text: "ok, none of " + workload.Count(b.Ops) + " found"}
		}
		return cell{text: "ok, " + workload.Count(v.Read) + " entries"}
	}}}

	return []table{
		main,
		grouped("Throughput (from engine time)", plain, all, throughput),
		grouped(fmt.Sprintf("Latency (per operation; batch writes per batch; scans per %d entries)", ScanChunk), latencyLabel, all, latency),
		grouped("Storage after writes (measured after closing the engine, and again after reopening it, when LSM engines have turned their logs into tables; overhead of the closed store over a flat array of the keys and values)", plain,
			func(i int) bool { return has(i, func(b *Bench) bool { return b.Storage != nil }) }, storage),
		grouped("Cost (CPU of all threads and I/O counted by the OS, including the engine's close after a write)", plain, all, cost),
		grouped("Verification (every entry read is checked; readCrc and readXxh64 against the checksum of the data written)", plain,
			func(i int) bool { return has(i, func(b *Bench) bool { return b.Verify != nil }) }, verify),
	}
}

func durationCell(d time.Duration) cell {
	return cell{text: humanDuration(d), value: float64(d), valued: true}
}

func bytesCell(n int64) cell {
	return cell{text: humanBytes(n), value: float64(n), valued: true}
}

// envLines is the environment as label/value pairs for the text reports.
func envLines(e workload.Environment) [][2]string {
	var versions []string
	for _, name := range slices.Sorted(maps.Keys(e.EngineVersions)) {
		versions = append(versions, name+" "+e.EngineVersions[name])
	}
	return [][2]string{
		{"CPU", fmt.Sprintf("%s, %d cores, %s RAM", e.CPUModel, e.Cores, humanBytes(e.MemoryBytes))},
		{"System", fmt.Sprintf("%s/%s, kernel %s, %s", e.OS, e.Arch, e.Kernel, e.GoVersion)},
		{"Data path", fmt.Sprintf("%s (%s)", e.DataPath, e.Filesystem)},
		{"Sync", string(e.Sync)},
		{"Seed", strconv.FormatUint(e.Seed, 10)},
		{"Command", strings.Join(e.CommandLine, " ")},
		{"Engines", strings.Join(versions, ", ")},
		{"Started", e.Start.UTC().Format("2006-01-02 15:04:05 MST")},
	}
}
