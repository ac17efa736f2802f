package crash

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/results"
)

// Report is the crash check of one or more engines, with the machine it
// ran on.
// Its fields, RunID, Env and Results, are results.Report's.
type Report results.Report[Result]

// Failure is why res failed: its error, or what its check found.
func Failure(res *Result) string {
	if res.Error != "" {
		return res.Error
	}
	return res.Crash.Failure()
}

// WriteCSV writes the report in long form (see report.CSV), part "run"
// for an engine's version, options, config and error, and part "crash"
// for its figures, named by their JSON paths (lost_batches,
// recovery_p50_ns, ...).
func (r Report) WriteCSV(w io.Writer) error {
	return r.set().WriteCSV(w, "part", r.RunID, r.Env, nil)
}

// set gathers the results by engine.
func (r Report) set() *results.Set[Result] { return results.New(schema, r.Results) }

// schema tells the report plumbing how to read a Result: its figures are
// one part, "crash". The check runs every engine once.
var schema = results.Schema[Result]{
	Header: func(res *Result) *harness.Header { return &res.Header },
	Error:  Failure,
	Ran:    func(res *Result) bool { return res.Config.Kills > 0 },
	Run: func(res *Result) []report.Figure {
		return results.RunFigures(res.Header, res.Error, report.Flatten("config", res.Config))
	},
	Parts: func(res *Result) []results.Part {
		if res.Crash == nil {
			return nil
		}
		return []results.Part{{Name: "crash", Figures: report.Flatten("", res.Crash)}}
	},
}

// config is the workload the report's engines ran.
func (r Report) config() Config {
	return results.Config(r.set(), func(res *Result) Config { return res.Config })
}

func (r Report) intro() string {
	c := r.config()
	tail := "Lost: acknowledged batches not wholly present. Torn: batches partly present. Either, or a failed reopen, fails the engine."
	if c.Kill == KillMember {
		return fmt.Sprintf("Member check: per engine, %d times one member of its local cluster (drawn by seed %d) was killed with SIGKILL "+
			"at a random moment within %v while a writer committed batches of %d entries (values of %d B) through the others, "+
			"restarted after %d more batches were acknowledged without it, and, once it had caught up, every batch read back "+
			"through the cluster and through that member alone.\n%s A failed restart fails it too. Recovery: the restart and the catch-up.",
			c.Kills, c.Seed, c.Window, c.Batch, c.ValueSize, downBatches, tail)
	}
	if !c.PowerCut() {
		return fmt.Sprintf("Crash check: per engine, %d times a writer committing batches of %d entries (values of %d B) was killed with SIGKILL "+
			"at a random moment within %v of its first acknowledged batch (seed %d), and the store reopened in a fresh process and read back whole.\n%s\n"+
			"A process kill leaves the OS and its page cache running: it cannot show what a machine crash or power loss "+
			"would lose, which only the sync profile \"batch\" guards against (-fault powercut checks that).",
			c.Kills, c.Batch, c.ValueSize, c.Window, c.Seed, tail)
	}
	torn := ""
	switch c.Fault {
	case FaultTorn:
		torn = ", keeping a random half of the 4 KiB blocks written over synced data"
	case FaultJournal:
		torn = ", which makes every pending name durable with any file's fsync, as ext4's journal does"
	}
	return fmt.Sprintf("Power-loss check: per engine, %d times a writer committing batches of %d entries (values of %d B) on a FUSE file system "+
		"that keeps what is not synced pending had the power cut under it%s, after 1 to %d acknowledged batches, in half of the cuts "+
		"in the middle of the next commit (seed %d); the store was mounted again with only what was synced, reopened in a fresh process "+
		"and read back whole.\n%s Under sync none, lost batches are expected and counted; torn ones still fail.",
		c.Kills, c.Batch, c.ValueSize, torn, c.CutBatches, c.Seed, tail)
}

// Page lays the report out in one table, for every format
// (report.Write).
func (r Report) Page() report.Page {
	set := r.set()
	engines := set.Engines()
	row := func(label string, best report.Better, get func(*Stats) report.Cell) report.Row {
		return report.Row{Labels: []string{label}, Best: best, Cells: set.Cells(func(res *Result) (report.Cell, bool, string) {
			if res.Crash == nil || res.Crash.Kills == 0 {
				return report.Cell{}, false, ""
			}
			c := get(res.Crash)
			// A count that fails the engine keeps its mark.
			if c.Failed {
				return c, true, "failed"
			}
			return c, true, ""
		})}
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
		faultRow(set),
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
	}}
	t.Rows = append(append(t.Rows, writerMemory(set)...), report.StatusRow(engines))
	return set.Page("Crash check", r.intro(), r.Env.Lines(), []report.Table{t}, nil)
}

// writerMemory are the rows of the writers' memory by kind, none if no
// writer reported its memory.
func writerMemory(set *results.Set[Result]) []report.Row {
	peaks := func(res *Result) *measure.MemoryPeaks {
		if res.Crash == nil {
			return nil
		}
		return res.Crash.WriterMemory
	}
	if !slices.ContainsFunc(set.All, func(res *Result) bool { return peaks(res) != nil }) {
		return nil
	}
	ms := results.MemoryMetrics(peaks)
	for i, m := range ms {
		if !strings.HasPrefix(m.Name, " ") { // not a part of the row above
			ms[i].Name = "Writer " + m.Name
		}
	}
	return set.Rows(ms...)
}

// faultRow says what struck each engine's writer, and under which sync
// profile.
func faultRow(set *results.Set[Result]) report.Row {
	return report.Row{Labels: []string{"Fault"}, Cells: set.Texts(func(x *Result) string {
		text := faultNames[x.Config.Fault]
		if text == "" {
			text = faultNames[FaultKill] // a report from before -fault
		}
		if x.Config.Kill == KillMember {
			text += " of a member"
		}
		if sync, ok := x.Options["sync"].(string); ok {
			text += ", sync " + sync
		}
		return text
	})}
}

// faultNames are the faults as the report names them.
var faultNames = map[string]string{FaultKill: "SIGKILL", FaultPowercut: "power cut", FaultTorn: "torn power cut", FaultJournal: "power cut, names journaled"}
