// Package workload holds the benchmark's workloads, one package each, and
// what they share; it has no code of its own.
//
// The workloads, each registered by name with package suite (package all
// links them all in):
//
//   - timeseries: InfluxDB's 2014 storage benchmark, "ts": write, query,
//     delete half, compact, query, write more, every value read back.
//   - micro: db_bench's and LmdbJava's micro benchmarks.
//   - mixed: writers ingest while readers query.
//   - steady: ingest on a schedule with retention, late points and churn.
//   - crash: kills and power cuts, and what the reopened store kept.
//
// What they share: suite (the registry, flags and the engine's process),
// harness (time, CPU, I/O and memory of a span; the run's environment),
// points (the data model's values), dataset (a saved write step to start
// later runs from), results (reports over results of any workload).
package workload
