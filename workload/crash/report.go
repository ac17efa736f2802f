package crash

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// Report is the crash check of one or more engines, with the machine it
// ran on.
type Report struct {
	// RunID identifies the run that made the report (see workload.Report).
	RunID   string              `json:"run_id,omitempty"`
	Env     harness.Environment `json:"environment"`
	Results []*Result           `json:"results"`
}

// Failure is why res failed: its error, or what its check found.
func Failure(res *Result) string {
	if res.Error != "" {
		return res.Error
	}
	return res.Crash.Failure()
}

// String renders the report for a terminal.
func (r Report) String() string { return r.page().Text() }

// Markdown renders the report as GitHub-flavored Markdown.
func (r Report) Markdown() string { return r.page().Markdown() }

// HTML renders the report as one self-contained page.
func (r Report) HTML() string { return r.page().HTML() }

// WriteJSON writes the report as indented JSON: each result's figures
// are under results[].crash.
func (r Report) WriteJSON(w io.Writer) error { return report.WriteJSON(w, r) }

// WriteCSV writes the report in long form (see report.CSV), part "run"
// for an engine's version, options, config and error, and part "crash"
// for its figures, named by their JSON paths (lost_batches,
// recovery_p50_ns, ...).
func (r Report) WriteCSV(w io.Writer) error {
	c := report.NewCSV(w, "part", r.RunID, r.Env.Start)
	c.Put("", 0, "environment", report.TextFigures(r.Env.Metrics()))
	for _, res := range r.results() {
		c.Put(res.Engine, max(res.Repeat, 1), "run", report.Flatten("", struct {
			Version string         `json:"version"`
			Options map[string]any `json:"options"`
			Config  Config         `json:"config"`
			Error   string         `json:"error"`
		}{res.Version, res.Options, res.Config, res.Error}))
		if res.Crash != nil {
			c.Put(res.Engine, max(res.Repeat, 1), "crash", report.Flatten("", res.Crash))
		}
	}
	return c.Flush()
}

// results returns the non-nil results.
func (r Report) results() []*Result {
	return slices.DeleteFunc(slices.Clone(r.Results), func(res *Result) bool { return res == nil })
}

// config is what the engines ran: the first result's that has one.
func (r Report) config() Config {
	for _, res := range r.results() {
		if res.Config.Kills > 0 {
			return res.Config
		}
	}
	return Config{}
}

func (r Report) intro() string {
	c := r.config()
	tail := "Lost: acknowledged batches not wholly present. Torn: batches partly present. Either, or a failed reopen, fails the engine."
	if !c.PowerCut() {
		return fmt.Sprintf("Crash check: per engine, %d times a writer committing batches of %d entries (values of %d B) was killed with SIGKILL "+
			"at a random moment within %v of opening (seed %d), and the store reopened in a fresh process and read back whole.\n%s\n"+
			"A process kill leaves the OS and its page cache running: it cannot show what a machine crash or power loss "+
			"would lose, which only the sync profile \"batch\" guards against (-fault powercut checks that).",
			c.Kills, c.Batch, c.ValueSize, c.Window, c.Seed, tail)
	}
	torn := ""
	if c.Fault == FaultTorn {
		torn = ", keeping a random half of the 4 KiB blocks written over synced data"
	}
	return fmt.Sprintf("Power-loss check: per engine, %d times a writer committing batches of %d entries (values of %d B) on a FUSE file system "+
		"that keeps what is not synced pending had the power cut under it%s, after 1 to %d acknowledged batches, in half of the cuts "+
		"in the middle of the next commit (seed %d); the store was mounted again with only what was synced, reopened in a fresh process "+
		"and read back whole.\n%s Under sync none, lost batches are expected and counted; torn ones still fail.",
		c.Kills, c.Batch, c.ValueSize, torn, c.CutBatches, c.Seed, tail)
}

// page lays the report out in one table.
func (r Report) page() report.Page {
	res := r.results()
	var engines []report.Engine
	for _, x := range res {
		engines = append(engines, report.Engine{Name: x.Engine, Error: Failure(x)})
	}
	row := func(label string, best report.Better, get func(*Stats) report.Cell) report.Row {
		row := report.Row{Labels: []string{label}, Best: best}
		for _, x := range res {
			c := report.None
			if x.Crash != nil && x.Crash.Kills > 0 {
				c = get(x.Crash)
			}
			// Judge would clear the mark of a count that fails the engine.
			failed := c.Failed
			c = report.Judge(c, "", Failure(x))
			c.Failed = failed
			row.Cells = append(row.Cells, c)
		}
		return row
	}
	count := func(get func(*Stats) int64, fails func(*Stats) bool) func(*Stats) report.Cell {
		return func(s *Stats) report.Cell {
			c := report.CountCell(get(s))
			c.Text = strconv.FormatInt(get(s), 10)
			c.Failed = get(s) > 0 && fails(s)
			return c
		}
	}
	never := func(*Stats) bool { return false }
	always := func(*Stats) bool { return true }
	rounds := "Kills"
	if r.config().PowerCut() {
		rounds = "Power cuts"
	}
	t := report.Table{Head: report.Head(engines, "Crash check"), Labels: 1, Rows: []report.Row{
		faultRow(res),
		row(rounds, report.NoBest, count(func(s *Stats) int64 { return int64(s.Kills) }, never)),
		row("Acknowledged batches", report.NoBest, count(func(s *Stats) int64 { return s.AcknowledgedBatches }, never)),
		row("Lost batches", report.NoBest, func(s *Stats) report.Cell {
			c := count(func(s *Stats) int64 { return s.LostBatches }, func(s *Stats) bool { return !s.LossAllowed })(s)
			if s.LossAllowed {
				c.Text += " (allowed)"
			}
			return c
		}),
		row("Torn batches", report.NoBest, count(func(s *Stats) int64 { return s.TornBatches }, always)),
		row("Reopen errors", report.NoBest, count(func(s *Stats) int64 { return int64(s.ReopenErrors) }, always)),
		row("Recovery p50", report.LowerBest, func(s *Stats) report.Cell { return report.DurationCell(s.RecoveryP50) }),
		row("Recovery max", report.LowerBest, func(s *Stats) report.Cell { return report.DurationCell(s.RecoveryMax) }),
		row("Integrity check", report.NoBest, func(s *Stats) report.Cell {
			if s.IntegrityCheck {
				return report.Cell{Text: "engine's own"}
			}
			return report.Cell{Text: "none"}
		}),
		report.StatusRow(engines),
	}}
	var names []string
	for _, e := range engines {
		names = append(names, e.Name)
	}
	return report.Page{Title: "Crash check: " + strings.Join(names, ", "), Intro: r.intro(), Engines: engines,
		Environment: r.Env.Lines(), Tables: []report.Table{t}}
}

// faultRow says what struck each engine's writer, and under which sync
// profile.
func faultRow(res []*Result) report.Row {
	row := report.Row{Labels: []string{"Fault"}}
	for _, x := range res {
		text := faultNames[x.Config.Fault]
		if text == "" {
			text = faultNames[FaultKill] // a report from before -fault
		}
		if sync, ok := x.Options["sync"].(string); ok {
			text += ", sync " + sync
		}
		row.Cells = append(row.Cells, report.Cell{Text: text})
	}
	return row
}

// faultNames are the faults as the report names them.
var faultNames = map[string]string{FaultKill: "SIGKILL", FaultPowercut: "power cut", FaultTorn: "torn power cut"}
