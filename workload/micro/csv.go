package micro

import (
	"io"

	"github.com/tsbench/storage/internal/report"
)

// WriteCSV writes the report in long form, one row per figure, under the
// header run_id,start,engine,repeat,benchmark,metric,stat,value,unit,text
// (see report.CSV for each column), so that any tool can pivot it and
// runs can be stacked:
//
//   - environment rows have an empty engine and benchmark "environment";
//   - per-run rows have benchmark "run": the engine's version and error,
//     its options ("options.cache_size") and config ("config.num");
//   - per-benchmark rows have the benchmark's label (its name, numbered
//     from its second run on: readrandom#2) and one figure each, named by
//     its JSON path (time_ns, us_per_op, storage.disk.used_bytes, ...;
//     see Bench), durations in ns and sizes in bytes;
//   - when an engine ran more than once, summary rows give the median,
//     min, max and n of every number of each benchmark over its runs.
//
// The value column holds numbers only; texts (names, versions, checksums,
// errors) are in the text column. Figures a benchmark does not have (no
// storage for reads, no verification for writes) are left out rather
// than written as zero.
func (r Report) WriteCSV(w io.Writer) error {
	c := report.NewCSV(w, "benchmark", r.RunID, r.Env.Start)
	c.Put("", 0, "environment", report.TextFigures(r.Env.Metrics()))
	labels := rowLabels(r.config().Benchmarks)
	for _, res := range r.results() {
		// The engine's own fields but its benchmarks, each a part of its
		// own.
		run := report.Flatten("", struct {
			Version string         `json:"version"`
			Options map[string]any `json:"options"`
			Config  Config         `json:"config"`
			Error   string         `json:"error"`
		}{res.Version, res.Options, res.Config, res.Error})
		c.Put(res.Engine, max(res.Repeat, 1), "run", run)
		for i := range res.Benchmarks {
			b := &res.Benchmarks[i]
			label := b.Name
			if i < len(labels) {
				label = labels[i]
			}
			c.Put(res.Engine, max(res.Repeat, 1), label, benchFigures(b))
		}
	}
	if r.maxRuns() > 1 {
		for _, g := range r.groups() {
			for i, label := range labels {
				if runs := g.figures(i); len(runs) > 0 {
					c.PutStats(g.engine, report.SummarizeRuns(label, runs))
				}
			}
		}
	}
	return c.Flush()
}
