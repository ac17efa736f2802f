package results

import (
	"encoding/json"
	"io"
	"slices"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// WriteCSV writes the results in long form, one row per figure (see
// report.CSV), under a header whose part column is named part:
//
//   - environment rows have an empty engine and part "environment";
//   - each run has a part "run" (Schema.Run), then a part of each of its
//     parts (Schema.Parts), numbered by its repeat from 1;
//   - when an engine ran more than once and summarized names parts, the
//     median, min, max and n of every number of each of those parts
//     over its runs (Summaries).
func (s *Set[R]) WriteCSV(w io.Writer, part, runID string, env harness.Environment, summarized []string) error {
	c := report.NewCSV(w, part, runID, env.Start)
	c.Put("", 0, "environment", report.TextFigures(env.Metrics()))
	for _, r := range s.All {
		h := s.schema.Header(r)
		c.Put(h.Engine, max(h.Repeat, 1), "run", s.schema.Run(r))
		for _, p := range s.schema.Parts(r) {
			c.Put(h.Engine, max(h.Repeat, 1), p.Name, p.Figures)
		}
	}
	for _, sum := range s.Summaries(summarized) {
		for _, p := range sum.Parts {
			c.PutStats(sum.Engine, p)
		}
	}
	return c.Flush()
}

// WriteJSON writes r as indented JSON (report.WriteJSON), and when an
// engine ran more than once a "summary" after its fields: per engine
// {engine, runs, key: [{name, figures: [{metric, unit, n, median, min,
// max}]}]} over the parts called names (Summaries).
func (s *Set[R]) WriteJSON(w io.Writer, r Report[R], key string, names []string) error {
	out := struct {
		Report[R]
		Summary []json.RawMessage `json:"summary,omitempty"`
	}{Report: r}
	for _, sum := range s.Summaries(names) {
		// The key is the workload's ("steps"), so the entry is spelt out.
		b, err := json.Marshal(map[string]any{"engine": sum.Engine, "runs": sum.Runs, key: sum.Parts})
		if err != nil {
			return err
		}
		out.Summary = append(out.Summary, b)
	}
	return report.WriteJSON(w, out)
}

// Summary is an engine's figures over its runs.
type Summary struct {
	Engine string
	// Runs is how many times the engine ran.
	Runs int
	// Parts summarizes every number of each part: {name, figures:
	// [{metric, unit, n, median, min, max}]}.
	Parts []report.PartStats
}

// Summaries summarize the parts called names of each engine over its
// runs, a part over the runs that have it; none when every engine ran
// once.
func (s *Set[R]) Summaries(names []string) []Summary {
	if s.maxRuns() < 2 {
		return nil
	}
	var out []Summary
	for _, g := range s.Groups {
		sum := Summary{Engine: g.Engine, Runs: len(g.Runs)}
		for _, name := range names {
			if runs := runsOf(g, name, s.Figures); len(runs) > 0 {
				sum.Parts = append(sum.Parts, report.SummarizeRuns(name, runs))
			}
		}
		out = append(out, sum)
	}
	return out
}

// runsOf are the figures of the part called name in each of g's runs
// that has it.
func runsOf[R any](g Group[R], name string, figures func(r *R, name string) []report.Figure) [][]report.Figure {
	var runs [][]report.Figure
	for _, r := range g.Runs {
		if f := figures(r, name); f != nil {
			runs = append(runs, f)
		}
	}
	return runs
}

// Figures are the figures of r's part called name, nil if it has none.
func (s *Set[R]) Figures(r *R, name string) []report.Figure {
	for _, p := range s.schema.Parts(r) {
		if p.Name == name {
			return p.Figures
		}
	}
	return nil
}

// Samples lists every number of the parts called names of each engine
// over its runs, labelled as the tables label them, for compare to weigh
// against another report's. figures are a run's figures of a part, nil
// if it has none.
func (s *Set[R]) Samples(names []string, label func(name string) string, figures func(r *R, name string) []report.Figure) []report.Samples {
	var out []report.Samples
	for _, g := range s.Groups {
		for _, name := range names {
			out = append(out, report.SamplesOf(g.Engine, name, label(name), runsOf(g, name, figures))...)
		}
	}
	return out
}

// RunFigures are the figures of a run as a whole (Schema.Run): the
// engine's version and options, then the workload's own (its config,
// named "config.points"...), then the run's error.
func RunFigures(h harness.Header, err string, own ...[]report.Figure) []report.Figure {
	out := report.Flatten("", struct {
		Version string         `json:"version"`
		Options map[string]any `json:"options"`
	}{h.Version, h.Options})
	out = append(out, slices.Concat(own...)...)
	return append(out, report.Flatten("error", err)...)
}
