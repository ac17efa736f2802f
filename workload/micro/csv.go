package micro

import "io"

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
	return r.set().WriteCSV(w, "benchmark", r.RunID, r.Env, rowLabels(r.config().Benchmarks))
}
