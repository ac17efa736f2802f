package workload

import (
	"github.com/tsbench/storage/internal/report"
)

// charts are the HTML report's pictures: per step, time, throughput and
// CPU as bars; the DB size after each step as lines; latency percentile
// curves per step; write amplification and peak memory.
func (r Report) charts() []report.Chart {
	timed := []string{StepWrite, StepQuery, StepDelete, StepQueryAfterDelete, StepWriteMore}
	writes := []string{StepWrite, StepDelete, StepCompact, StepWriteMore}
	positive := func(v float64) (float64, bool) { return v, v > 0 }
	latency := report.Chart{Title: "Latency percentiles",
		Note: "Write: per batch; query: per series scan; delete: per series DeleteRange. Lower is better."}
	for _, step := range timed {
		latency.Panels = append(latency.Panels, r.percentileChart(step))
	}
	return []report.Chart{
		r.stepChart("Time per step", "Time inside engine calls. Lower is better.", report.Bars, StepNames, "ns",
			func(s *Step) (float64, bool) { return float64(s.Time), true }),
		r.stepChart("Throughput", "Points per second of engine time. Higher is better.", report.Bars, timed, "points/s",
			func(s *Step) (float64, bool) { return positive(s.PointsPerSec) }),
		r.stepChart("DB size after each step", "Bytes of data in the engine's directory (disk used). Lower is better.", report.Lines, StepNames, "bytes",
			func(s *Step) (float64, bool) { return float64(s.Disk.Used), true }),
		latency,
		r.stepChart("CPU time", "User + system time of every thread, background work included. Lower is better.", report.Bars, StepNames, "ns",
			func(s *Step) (float64, bool) { return float64(s.CPUUser + s.CPUSys), true }),
		r.stepChart("Write amplification", "Bytes the OS wrote over the logical bytes of the step. Lower is better.", report.Bars, writes, "",
			func(s *Step) (float64, bool) { return positive(s.WriteAmp) }),
		r.stepChart("Peak memory", "Peak resident memory of the engine's process during the step. Lower is better.", report.Bars, StepNames, "bytes",
			func(s *Step) (float64, bool) { return positive(float64(s.PeakRSS)) }),
	}
}

// stepChart is a chart of one figure of the steps, one series per
// engine, each point the median and spread of the engine's runs.
func (r Report) stepChart(title, note string, kind report.ChartKind, steps []string, unit string, get func(*Step) (float64, bool)) report.Chart {
	cfg := r.config()
	c := report.Chart{Title: title, Note: note, Kind: kind, Format: report.UnitFormat(unit), Unit: unit}
	for _, s := range steps {
		c.Groups = append(c.Groups, Label(s, cfg))
	}
	for _, g := range r.groups() {
		se := report.ChartSeries{Name: g.engine}
		for _, step := range steps {
			se.Points = append(se.Points, g.point(step, get))
		}
		c.Series = append(c.Series, se)
	}
	return c
}

// percentileChart is the latency distribution of one step: a line per
// engine through its percentiles.
func (r Report) percentileChart(step string) report.Chart {
	c := report.Chart{Title: Label(step, r.config()), Kind: report.Lines, Format: report.FormatDuration, Unit: "ns"}
	ps := report.Percentiles()
	for _, p := range ps {
		c.Groups = append(c.Groups, p.Name)
	}
	for _, g := range r.groups() {
		se := report.ChartSeries{Name: g.engine}
		for _, p := range ps {
			se.Points = append(se.Points, g.point(step, func(s *Step) (float64, bool) {
				if s.Latency == nil || s.Latency.Count == 0 {
					return 0, false
				}
				return float64(p.Of(s.Latency)), true
			}))
		}
		c.Series = append(c.Series, se)
	}
	return c
}

// point is a figure of one step over the engine's runs that have it.
func (g group) point(step string, get func(*Step) (float64, bool)) report.Point {
	var vs []float64
	failed := false
	for _, res := range g.runs {
		st := res.Step(step)
		if st == nil {
			continue
		}
		if v, ok := get(st); ok {
			vs = append(vs, v)
			failed = failed || st.Error != ""
		}
	}
	return report.Point{Stats: report.Summarize(vs), Failed: failed}
}
