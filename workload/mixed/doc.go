// Package mixed is the time-series workload of a TSDB at work: writers
// ingest points while readers query them, for a fixed duration, on any
// engine.Engine, every read checked.
//
//	res, err := mixed.Run(db, dir, mixed.Config{Duration: 30 * time.Second, Writers: 2, Readers: 2,
//		Series: 2000, Batch: 1000, Points: 1e6, Seed: 1})
//	fmt.Print(mixed.Report{Env: harness.CollectEnvironment(dir), Results: []*mixed.Result{res}})
//
// # Data
//
// The points are the time-series workload's (see package workload): key
// (series, timestamp, sequence), a protobuf value derived from the seed.
// Point k of series s is that workload's point k*Series+s, so the
// preload (Points, written before the clock starts, as its write step
// writes them) and a dataset of package dataset are the same data. An
// imported file's points run in their place (see An imported file).
//
// # Writers and readers
//
// Writer w of W owns the series [w*Series/W, (w+1)*Series/W) and appends
// to them round-robin, each series' next point later in time, in batches
// of Batch points, one Commit each; with Rate it paces itself to its
// share of Rate points per second. Once a commit returns, the writer
// acknowledges its points.
//
// Readers draw each query's kind by the querymix.Mix weights and its series
// uniformly or, with Skew, zipfian (series 0 the most read):
//
//	last    the latest point of a series: Last on an iterator bounded to it (a reverse seek)
//	recent  the last Window of a series, from its latest acknowledged point
//	range   a random time range of a series, between two acknowledged points
//	scan    a whole series
//	multi   the last Window of MultiSeries series, under one snapshot (engine.NewSnapshot),
//	        one iterator moved between them by engine.SetBounds
//
// Each query but multi makes a fresh iterator, as a reused one would keep
// an old view. Its latency covers making the iterator (or snapshot),
// positioning, reading and copying each entry out, and closing; checking
// the copies is done with the clock stopped.
//
// # Verification
//
// A query reads the series' acknowledged count before it starts. Every
// entry it returns must be a point of the series, in order, once (else
// unexpected), with its generated value (else wrong), and every acknowledged point
// in its range must be among them (else missing); points written since
// may appear too. When the duration is over, writers and readers stop
// and a final check reads every series whole, expecting exactly the
// acknowledged points. A verification failure is recorded and the run
// reports it; an engine error stops the run.
//
// # An imported file
//
// With an imported file (-values FILE: line protocol or CSV, see
// package points) its points run in place of generated ones: its series
// (Series is the file's, from its survey), its timestamps, its values.
// The preload is the file's first Points points, in file order; writer
// w owns the file's series [w*Series/W, (w+1)*Series/W) and appends the
// rest of their points in file order, each writer reading the file
// (points.Stream) and keeping its own series' points, and after the
// file's last point its points again, later by the file's time span,
// so that a run never runs out. The file has as many series as writers
// or more, and Points are at most its points; else the run is refused
// before anything is created. Rate shares are by series, as in the
// generated case, whatever the file's points per series.
//
// The file is never held: for each series the run keeps what writers
// acknowledged, a few numbers: the count, the sum of the points'
// digests (points.Digest), the first and latest timestamps and the
// latest's digest. A series' points are in increasing time, so the
// acknowledged ones are exactly those up to the latest acknowledged
// timestamp. Queries pick their ranges from these: recent reads from
// Window before the series' latest acknowledged point, range between
// two times drawn between its first and latest, multi the last Window
// before the latest of its series'. A read checks every entry's key (a
// point of the series, in its range, in increasing time, so once) and
// value (one of the encoding's, for the series' type); where its range
// holds the latest acknowledged point, that point and its digest; and
// where its range holds every acknowledged point (a scan, or a window
// longer than the series), their count and the sum of their digests, so
// a lost, added or changed point anywhere in it shows. A read over part
// of a series cannot see a point lost in its middle; the scans and the
// final check do: it reads every series whole and expects exactly the
// acknowledged points by count and sum, and nothing later.
//
// # What is measured
//
// Per operation kind (write, then each query kind): count (points for
// writes, queries for the others), ops/s over the run's elapsed time,
// points read, HDR latency percentiles (per batch for writes), the
// verification counts, and the count in each second of the run. For the
// run: its elapsed time and Cost (CPU of every thread, OS I/O, peak
// RSS, and the peaks of memory by kind: private, its Go runtime part,
// mapped files, shared; see harness.Cost), and the directory's size at
// the end; for the preload, its time,
// rate and cost as the time-series write step measures them. The
// harness's own memory does not grow with the duration: latencies go to
// fixed-size histograms, reads to a reused buffer of 1024 entries, and
// per-second counts are a few numbers per second.
//
// # Output
//
// Report renders results side by side: String (a terminal), Markdown,
// HTML (with charts of throughput over time and of latency), WriteCSV
// (long form, one figure a row) and WriteJSON:
//
//	{
//	  "run_id", "environment": {...as package workload's...},
//	  "results": [{
//	    "engine", "repeat", "version", "options", "error",
//	    "config": {duration_ns, writers, readers, series, batch, points, rate, mix{last, recent, range, scan, multi},
//	               window_ns, skew, multi_series, seed},
//	    "dataset": {path, created, method, clone_ns} (when the preload came from a dataset),
//	    "preload": {points, time_ns, points_per_sec, wall_ns, cpu_user_ns, cpu_sys_ns, io, peak_rss_bytes, memory, latency},
//	    "elapsed_ns", "cost": {wall_ns, cpu_user_ns, cpu_sys_ns, io, peak_rss_bytes,
//	             memory: {peak_private_bytes, peak_file_bytes, peak_shmem_bytes, peak_go_bytes, samples}},
//	    "disk": {used_bytes, actual_bytes, apparent_bytes, files},
//	    "operations": [{kind, count, ops_per_sec, points,
//	                    latency: {count, p50_ns, p99_ns, p999_ns, max_ns}, latency_of,
//	                    verify: {read, missing, unexpected, wrong, first_problem} (queries),
//	                    per_second: [count in second 1, 2, ...],
//	                    per_second_stats: {min, median, max} (whole seconds)}],
//	    "final_check": {read, missing, unexpected, wrong, first_problem}
//	  }]
//	}
//
// # On the command line
//
// The package registers itself as the workload mixed of package
// workload/suite, whose settings are a Config: its own flags set it, those
// the steady-state workload shares (DefineLoad: -writers, -readers,
// -duration, -rate, -mix, -window) and -skew; -points (the preload, none
// unless given), -series, -batch and -seed are the command's, copied in
// once when the workload is configured, and so is -dataset.
package mixed
