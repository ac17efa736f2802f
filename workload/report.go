package workload

import (
	"fmt"
	"io"
	"slices"

	"github.com/tsbench/storage/internal/report"
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
func (r Report) String() string { return r.page().Text() }

// Markdown renders the same report as GitHub-flavored Markdown, the best
// of each row in bold.
func (r Report) Markdown() string { return r.page().Markdown() }

// WriteJSON writes the report, every metric and the environment, as
// indented JSON (schema: see the package documentation).
func (r Report) WriteJSON(w io.Writer) error { return report.WriteJSON(w, r) }

// config is the workload the report's engines ran: the config of the
// first result that has one (an engine whose process crashed has none).
func (r Report) config() Config {
	for _, res := range r.results() {
		if res.Config.Points > 0 {
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

// results returns the non-nil results, so that a caller's gap cannot
// crash the rendering.
func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

// page lays the report out: the main table, then the extra ones.
func (r Report) page() report.Page {
	res := r.results()
	engines := make([]report.Engine, len(res))
	for i, x := range res {
		engines[i] = report.Engine{Name: x.Engine, Error: x.Error}
	}
	cfg := r.config()
	cellsFor := func(step string, m metric) []report.Cell {
		cells := make([]report.Cell, len(res))
		for i, x := range res {
			st := x.Step(step)
			if st == nil {
				cells[i] = report.None
				continue
			}
			cells[i] = report.Judge(m.get(st), st.Error, x.Error)
		}
		return cells
	}

	took := metric{"time", report.LowerBest, func(s *Step) report.Cell { return report.DurationCell(s.Time) }}
	size := metric{"DB size", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Actual) }}
	main := report.Table{Head: report.Head(engines, "Step"), Labels: 1}
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
		main.Rows = append(main.Rows, report.Row{Labels: []string{label}, Cells: cellsFor(x.step, x.m), Best: x.m.best})
	}
	main.Rows = append(main.Rows, report.StatusRow(engines))

	settle := false
	for _, x := range res {
		settle = settle || x.Config.Settle
	}
	speed := []metric{
		{"points/s", report.HigherBest, func(s *Step) report.Cell {
			if s.PointsPerSec == 0 {
				return report.None
			}
			return report.RateCell(s.PointsPerSec)
		}},
		{"µs/point", report.LowerBest, func(s *Step) report.Cell {
			if s.PointsPerSec == 0 {
				return report.None
			}
			return report.Sig3Cell(s.MicrosPerPoint)
		}},
		{"wall", report.LowerBest, func(s *Step) report.Cell { return report.DurationCell(s.Wall) }},
	}
	if settle {
		speed = append(speed, metric{"settle", report.LowerBest, func(s *Step) report.Cell {
			c := report.DurationCell(s.Settle)
			if s.SettleTimedOut {
				c.Text = ">" + c.Text
			}
			return c
		}})
	}
	speed = append(speed, metric{"CPU user+sys", report.LowerBest, func(s *Step) report.Cell { return report.DurationCell(s.CPUUser + s.CPUSys) }})

	storage := []metric{
		{"written (OS)", report.LowerBest, func(s *Step) report.Cell { return report.WrittenCell(s.IO) }},
		{"read (OS)", report.LowerBest, func(s *Step) report.Cell { return report.ReadCell(s.IO) }},
		{"write amp", report.LowerBest, func(s *Step) report.Cell {
			if s.WriteAmp == 0 {
				return report.None
			}
			return report.Sig3Cell(s.WriteAmp)
		}},
		{"disk actual", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Actual) }},
		{"disk apparent", report.LowerBest, func(s *Step) report.Cell { return report.BytesCell(s.Disk.Apparent) }},
		{"files", report.NoBest, func(s *Step) report.Cell { return report.Cell{Text: fmt.Sprint(s.Disk.Files)} }},
	}
	memory := []metric{
		{"peak RSS", report.LowerBest, func(s *Step) report.Cell { return report.PeakRSSCell(s.PeakRSS) }},
		{"open fds", report.NoBest, func(s *Step) report.Cell {
			if s.OpenFDs == 0 {
				return report.Cell{Text: "n/a"}
			}
			return report.Cell{Text: fmt.Sprint(s.OpenFDs)}
		}},
	}
	var latency []metric
	for _, p := range report.Percentiles() {
		latency = append(latency, metric{p.Name, report.LowerBest, func(s *Step) report.Cell { return p.Cell(s.Latency) }})
	}
	verify := []metric{{"checked", report.NoBest, func(s *Step) report.Cell {
		v := s.Verify
		if v == nil {
			return report.None
		}
		if v.OK() {
			return report.Cell{Text: "ok, " + Count(v.Read) + " points"}
		}
		return report.Cell{Text: fmt.Sprintf("%d missing, %d unexpected, %d wrong of %s", v.Missing, v.Unexpected, v.WrongValues, Count(v.Expected))}
	}}}

	grouped := func(title string, steps []string, metrics []metric) report.Table {
		t := report.Table{Title: title, Head: report.Head(engines, "Step", "Metric"), Labels: 2}
		for _, step := range steps {
			for i, m := range metrics {
				label := ""
				if i == 0 {
					label = Label(step, cfg)
				}
				t.Rows = append(t.Rows, report.Row{Labels: []string{label, m.name}, Cells: cellsFor(step, m), Best: m.best})
			}
		}
		return t
	}
	timedSteps := slices.DeleteFunc(slices.Clone(StepNames), func(s string) bool { return s == StepCompact })
	return report.Page{Intro: r.intro(), Engines: engines, Environment: r.Env.Lines(), Tables: []report.Table{
		main,
		grouped("Speed and CPU (points/s and µs/point from engine time; wall includes the harness; CPU of all threads until settled)", StepNames, speed),
		grouped("Storage (I/O counted by the OS until settled; write amp = written / logical bytes; disk after the step)", StepNames, storage),
		grouped("Memory and files (peak during the step)", StepNames, memory),
		grouped("Latency (write: per batch; query: per series scan; delete: per series DeleteRange)", timedSteps, latency),
		grouped("Verification (every point read back and checked)", []string{StepQuery, StepQueryAfterDelete}, verify),
	}}
}

// metric is one figure of a step.
type metric struct {
	name string
	best report.Better
	get  func(*Step) report.Cell
}
