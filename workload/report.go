package workload

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"
)

// Report is the results of one or more engines on the same workload, with
// the machine they ran on.
type Report struct {
	Env     Environment `json:"environment"`
	Results []*Result   `json:"results"`
}

// String renders the report for a terminal: the side-by-side table of the
// 2014 benchmark (steps as rows, engines as columns, the best of each row
// marked '*'), the errors, the extra metrics, and the environment.
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
	for _, kv := range r.Env.lines() {
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
	for _, kv := range r.Env.lines() {
		fmt.Fprintf(&b, "- %s: %s\n", kv[0], kv[1])
	}
	return b.String()
}

// WriteJSON writes the report, every metric and the environment, as
// indented JSON (schema: see the package documentation).
func (r Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// config is the workload the report's engines ran (the first result's).
func (r Report) config() Config {
	for _, res := range r.Results {
		if res != nil {
			return res.Config
		}
	}
	return Config{}
}

func (r Report) intro() string {
	c := r.config()
	settle := "off"
	if c.Settle {
		settle = "on"
	}
	return fmt.Sprintf("%s points over %s series, batches of %d, seed %d, settle %s.\n"+
		"Times are engine calls only: generating, encoding and verifying data are excluded (see wall).\n"+
		"Best of each row marked *; ! marks a failed step (see Errors). Sizes in binary units.",
		Count(c.Points), Count(c.Series), c.Batch, c.Seed, settle)
}

// errors lists each failed engine's error.
func (r Report) errors() []string {
	var errs []string
	for _, res := range r.Results {
		if res != nil && res.Error != "" {
			errs = append(errs, res.Engine+": "+res.Error)
		}
	}
	return errs
}

// results returns the non-nil results, so a caller's gap cannot crash
// the rendering.
func (r Report) results() []*Result {
	var out []*Result
	for _, res := range r.Results {
		if res != nil {
			out = append(out, res)
		}
	}
	return out
}

// metric is one figure of a step.
type metric struct {
	name string
	dir  better
	get  func(*Step) cell
}

// tables builds the main table followed by the extra ones.
func (r Report) tables() []table {
	res := r.results()
	cfg := r.config()
	head := func(labels ...string) []string {
		for _, x := range res {
			labels = append(labels, x.Engine)
		}
		return labels
	}
	cellsFor := func(step string, m metric) []cell {
		cells := make([]cell, len(res))
		for i, x := range res {
			st := x.Step(step)
			if st == nil {
				cells[i] = none
				continue
			}
			cells[i] = m.get(st)
			cells[i].failed = st.Error != "" && cells[i].text != "-"
			// An engine that failed anywhere is shown but never crowned.
			cells[i].valued = cells[i].valued && x.Error == ""
		}
		return cells
	}

	took := metric{"time", lowerBest, func(s *Step) cell { return durationCell(s.Time) }}
	size := metric{"DB size", lowerBest, func(s *Step) cell { return bytesCell(s.Disk.Actual) }}
	main := table{head: head("Step"), labels: 1}
	var dirs []better
	for _, x := range []struct {
		step string
		m    metric
		size bool
	}{
		{StepWrite, took, false}, {StepWrite, size, true},
		{StepQuery, took, false}, {StepDelete, took, false},
		{StepCompact, took, false}, {StepCompact, size, true},
		{StepQueryAfterDelete, took, false},
		{StepWriteMore, took, false}, {StepWriteMore, size, true},
	} {
		label := Label(x.step, cfg)
		if x.size {
			label = "DB size"
		}
		main.rows = append(main.rows, row{labels: []string{label}, cells: cellsFor(x.step, x.m)})
		dirs = append(dirs, x.m.dir)
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
	main.markBest(append(dirs, noBest))

	settle := false
	for _, x := range res {
		settle = settle || x.Config.Settle
	}
	speed := []metric{
		{"points/s", higherBest, func(s *Step) cell {
			if s.PointsPerSec == 0 {
				return none
			}
			return cell{text: humanRate(s.PointsPerSec), value: s.PointsPerSec, valued: true}
		}},
		{"µs/point", lowerBest, func(s *Step) cell {
			if s.PointsPerSec == 0 {
				return none
			}
			return cell{text: sig3(s.MicrosPerPoint), value: s.MicrosPerPoint, valued: true}
		}},
		{"wall", lowerBest, func(s *Step) cell { return durationCell(s.Wall) }},
	}
	if settle {
		speed = append(speed, metric{"settle", lowerBest, func(s *Step) cell {
			c := durationCell(s.Settle)
			if s.SettleTimedOut {
				c.text = ">" + c.text
			}
			return c
		}})
	}
	speed = append(speed, metric{"CPU user+sys", lowerBest, func(s *Step) cell { return durationCell(s.CPUUser + s.CPUSys) }})

	ioCell := func(get func(s *Step) int64) func(*Step) cell {
		return func(s *Step) cell {
			if s.IO == nil {
				return cell{text: "n/a"}
			}
			return bytesCell(get(s))
		}
	}
	storage := []metric{
		{"written (OS)", lowerBest, ioCell(func(s *Step) int64 { return s.IO.WriteBytes })},
		{"read (OS)", lowerBest, ioCell(func(s *Step) int64 { return s.IO.ReadBytes })},
		{"write amp", lowerBest, func(s *Step) cell {
			if s.WriteAmp == 0 {
				return none
			}
			return cell{text: sig3(s.WriteAmp), value: s.WriteAmp, valued: true}
		}},
		{"disk actual", lowerBest, func(s *Step) cell { return bytesCell(s.Disk.Actual) }},
		{"disk apparent", lowerBest, func(s *Step) cell { return bytesCell(s.Disk.Apparent) }},
		{"files", noBest, func(s *Step) cell { return cell{text: fmt.Sprint(s.Disk.Files)} }},
	}
	memory := []metric{
		{"peak RSS", lowerBest, func(s *Step) cell {
			if s.PeakRSS == 0 {
				return cell{text: "n/a"}
			}
			return bytesCell(s.PeakRSS)
		}},
		{"open fds", noBest, func(s *Step) cell {
			if s.OpenFDs == 0 {
				return cell{text: "n/a"}
			}
			return cell{text: fmt.Sprint(s.OpenFDs)}
		}},
	}
	lat := func(get func(s *Step) time.Duration) func(*Step) cell {
		return func(s *Step) cell {
			if s.Latency == nil || s.Latency.Count == 0 {
				return none
			}
			return durationCell(get(s))
		}
	}
	latency := []metric{
		{"p50", lowerBest, lat(func(s *Step) time.Duration { return s.Latency.P50 })},
		{"p99", lowerBest, lat(func(s *Step) time.Duration { return s.Latency.P99 })},
		{"p99.9", lowerBest, lat(func(s *Step) time.Duration { return s.Latency.P999 })},
		{"max", lowerBest, lat(func(s *Step) time.Duration { return s.Latency.Max })},
	}
	verify := []metric{{"checked", noBest, func(s *Step) cell {
		v := s.Verify
		if v == nil {
			return none
		}
		if v.OK() {
			return cell{text: "ok, " + Count(v.Read) + " points"}
		}
		return cell{text: fmt.Sprintf("%d missing, %d unexpected, %d wrong of %s", v.Missing, v.Unexpected, v.WrongValues, Count(v.Expected))}
	}}}

	grouped := func(title string, steps []string, metrics []metric) table {
		t := table{title: title, head: head("Step", "Metric"), labels: 2}
		var dirs []better
		for _, step := range steps {
			for i, m := range metrics {
				label := ""
				if i == 0 {
					label = Label(step, cfg)
				}
				t.rows = append(t.rows, row{labels: []string{label, m.name}, cells: cellsFor(step, m)})
				dirs = append(dirs, m.dir)
			}
		}
		t.markBest(dirs)
		return t
	}
	timedSteps := slices.DeleteFunc(slices.Clone(StepNames), func(s string) bool { return s == StepCompact })
	return []table{
		main,
		grouped("Speed and CPU (points/s and µs/point from engine time; wall includes the harness; CPU of all threads until settled)", StepNames, speed),
		grouped("Storage (I/O counted by the OS until settled; write amp = written / logical bytes; disk after the step)", StepNames, storage),
		grouped("Memory and files (peak during the step)", StepNames, memory),
		grouped("Latency (write: per batch; query: per series scan; delete: per series DeleteRange)", timedSteps, latency),
		grouped("Verification (every point read back and checked)", []string{StepQuery, StepQueryAfterDelete}, verify),
	}
}

func durationCell(d time.Duration) cell {
	return cell{text: humanDuration(d), value: float64(d), valued: true}
}

func bytesCell(n int64) cell {
	return cell{text: humanBytes(n), value: float64(n), valued: true}
}

// lines is the environment as label/value pairs for the text reports.
func (e Environment) lines() [][2]string {
	var versions []string
	for _, name := range slices.Sorted(maps.Keys(e.EngineVersions)) {
		v := e.EngineVersions[name]
		if !strings.HasPrefix(v, name) { // most say "pebble v1.1.5" already
			v = strings.TrimSpace(name + " " + v)
		}
		versions = append(versions, v)
	}
	return [][2]string{
		{"CPU", fmt.Sprintf("%s, %d cores, %s RAM", e.CPUModel, e.Cores, humanBytes(e.MemoryBytes))},
		{"System", fmt.Sprintf("%s/%s, kernel %s, %s", e.OS, e.Arch, e.Kernel, e.GoVersion)},
		{"Data path", fmt.Sprintf("%s (%s)", e.DataPath, e.Filesystem)},
		{"Sync", string(e.Sync)},
		{"Seed", fmt.Sprint(e.Seed)},
		{"Command", strings.Join(e.CommandLine, " ")},
		{"Engines", strings.Join(versions, ", ")},
		{"Started", e.Start.UTC().Format("2006-01-02 15:04:05 MST")},
	}
}
