package timeseries

import "io"

// WriteCSV writes the report in long form, one row per figure, under the
// header run_id,start,engine,repeat,step,metric,stat,value,unit,text (see
// report.CSV for each column), so that any tool can pivot it and runs
// can be stacked:
//
//   - environment rows have an empty engine and step "environment";
//   - per-run rows have step "run": the engine's version and error, its
//     options ("options.cache_size", "options.rocksdb.block_size") and
//     config ("config.points");
//   - per-step rows have the step name (write, query, ...) and one figure
//     each, named by its JSON path (time_ns, io.write_bytes,
//     latency.p99_ns, ...; see Step), durations in ns and sizes in bytes;
//   - when an engine ran more than once, summary rows give the median,
//     min, max and n of every number of each step over its runs.
//
// The value column holds numbers only (a bool is 1 or 0); texts (labels,
// versions, errors) are in the text column. Figures a step does not have
// (no latency for compaction, no I/O when the OS does not report it) are
// left out rather than written as zero.
func (r Report) WriteCSV(w io.Writer) error {
	return r.set().WriteCSV(w, "step", r.RunID, r.Env, StepNames)
}
