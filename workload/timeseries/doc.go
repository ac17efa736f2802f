// Package timeseries is the time-series benchmark: InfluxDB's 2014 storage
// benchmark (write, query, delete half, compact, query, write more), made
// reproducible, verified and honestly measured, for any engine.Engine.
//
//	res, err := timeseries.Run(db, dir, timeseries.Config{Points: 1e6, Series: 1000, Batch: 1000, Seed: 1})
//	fmt.Print(timeseries.Report{Env: harness.CollectEnvironment(dir), Results: []*timeseries.Result{res}})
//
// # Data
//
// The data model is shared with the other suites: a key is 24 bytes, three
// big-endian uint64s: series id, timestamp in nanoseconds, sequence number
// (package [github.com/tsbench/storage/engine/tskey]). A value is a
// protobuf FieldValue holding an int64, about 10 bytes, encoded with
// protowire without allocating (package
// [github.com/tsbench/storage/workload/points]); a test proves it
// byte-identical to proto.Marshal of the generated message, and readable
// by proto.Unmarshal.
//
// Point i (from 0, in write order) is series i mod Series, timestamp
// Epoch + i*Interval, sequence i+1, and value Generator.Value(i+1), a
// splitmix64 output of Seed: the same seed gives the same run, and every
// value read back is checked without storing any. Batches hold Batch
// consecutive points, so each point of a batch is a different series.
//
// # Steps and exact counts
//
// With N = Points, S = Series and H = N/2 rounded down:
//
//	step                label               points   what
//	write               Write N values      N        points 0..N-1, one Commit per batch
//	query               Query N values      N        per series, a fresh iterator bounded to it, First..Next
//	delete              Delete H values     H        per series, DeleteRange of timestamps before point H's
//	compact             Compaction          N-H      Compact(nil, nil); N-H points stay live
//	query_after_delete  Query N-H values    N-H      as query
//	write_more          Write H values      H        points N..N+H-1, later timestamps
//
// Series s holds Count(0, N, s) points after the first write (N/S, plus one
// for s < N mod S), loses Count(0, H, s) to the delete (its oldest half,
// rounded up or down), and ends with Count(H, N+H, s). Every key and value
// read is checked against these counts and the generator (Verification);
// write steps also read back their first and last point.
//
// With Config.ReuseIterator, a query step reads every series through one
// iterator instead, given each series' bounds in turn (engine.SetBounds:
// the engine's own BoundsSetter, or a close and reopen where it has
// none), as a time-series database reading many series would. It is off
// by default, so that query times stay comparable with the 2014 tool,
// which opened an iterator per series; the report's first line says when
// it was on. The points read and checked are the same either way.
//
// A wrong, missing or unexpected point is a verification failure: it is
// recorded in its Step and in Result.Error, Run's error wraps
// ErrVerification, and the run goes on. An engine error (a failed Commit,
// iterator or DeleteRange) is recorded the same way and ends the run.
//
// # What is measured
//
// Per step (see Step for each field): Time, the time inside engine calls
// only; Wall, the step's elapsed time including the harness's own work;
// points/s and µs/point from Time; CPU user and system time of the whole
// process, every thread (getrusage RUSAGE_SELF), so engines' background
// compactions are charged; bytes the OS read and wrote (/proc/self/io),
// and write amplification = written bytes / logical bytes, where logical
// bytes are the key+value bytes written (write steps), deleted (delete),
// or left live (compact); the directory's size three ways (see Sizes on
// disk) and file count after the step; peak RSS (VmHWM, reset before
// each step) and the most open file descriptors seen; HDR-histogram
// latency percentiles of write batches, per-series scans and per-series
// deletes.
//
// Data generation and encoding happen before each batch's timer starts;
// a scan's timer covers the engine and copying each entry into a reused
// buffer, and verification runs with the timer paused every 1024 entries.
// No step allocates per point, so the harness's memory is flat in N.
//
// With Config.Settle, after each step Run waits until the engine's
// background work stops (engine.Backgrounder, else until the directory
// stops changing for two 500 ms samples) and reports that time as Settle.
// CPU and I/O then run to the end of the settle, and sizes are taken
// after it, so deferred compaction is charged to the step that caused it.
// Without it, background work spills into the next step's CPU and I/O.
//
// # Engine metrics
//
// An engine that reports its own work (engine.MetricsReporter) is read
// with engine.ReadMetrics before each step and after it, at the moments
// the CPU and I/O figures cover (after the settle, when settling), and
// the step records in engine_metrics each counter's increase over the
// step (compact_bytes, compact_ns, stalls, stall_ns, cache_hits,
// cache_misses) and the gauge memtable_bytes as at its end. An engine
// reports the subset of engine.MetricNames it knows: a name missing is
// unknown, not zero, and the reports show "-" for it. Each engine counts
// in its own way, so these explain an engine's figures rather than rank
// engines.
//
// # Engines that work in other processes
//
// An engine may do its work outside this process: a local etcd cluster's
// members are processes of their own, and this process only sends them
// requests. Such a backend lists them (engine.Processes), and each step
// adds their CPU time (/proc/<pid>/stat, exact to 10 ms per process) and
// storage traffic (/proc/<pid>/io) to the process's own, so the CPU, I/O
// and write amplification figures cover the engine's whole work;
// processes.count says how many were counted, and processes.cpu_user_ns
// and cpu_sys_ns which part of the CPU time was theirs. Their memory is
// reported apart, processes.peak_rss_bytes, the sum of each one's peak
// during the step, while peak_rss_bytes stays this process's. A process that exits or
// starts during a step (a member killed mid-run) is left out of that
// step, with a warning. A cluster on other machines is measured by none of
// these figures: only its time is. Where the backend reports its data's
// size itself (engine.Sizer), engine_size holds it after each step,
// beside the directory's: for etcd, the members' backend files, in use
// and on disk, summed over the members.
//
// # Sizes on disk
//
// Each step measures the engine's directory three ways, summed over its
// regular files:
//
//   - used_bytes, the "DB size" of the reports: per file, its allocated
//     bytes capped at its length. Data counts, to the byte; space an
//     engine preallocated past the end of a file (Pebble and RocksDB
//     fallocate each write-ahead log ahead of its writes) and the holes of
//     a sparse file (LMDB and bbolt keep their file as long as their map)
//     do not. Stale data inside a file's length does: a log file that an
//     engine recycles keeps its old records past the new ones.
//   - actual_bytes: the allocated blocks, what du shows: what the
//     directory takes from the file system, preallocated space included.
//   - apparent_bytes: the file lengths, what ls and du --apparent-size
//     show, holes included.
//
// used_bytes is never more than either of the others. An engine whose
// actual_bytes far exceed its used_bytes has reserved space it has not
// written yet.
//
// # Output
//
// Report renders results side by side, its Page in text for a terminal
// (at most 120 columns), Markdown and HTML (one self-contained page with
// charts; report.Write), WriteCSV (long form, one figure a row: run_id,
// start, engine, repeat, step, metric, stat, value, unit, text; see
// report.CSV), WriteJSON and WriteGoBench (a line per step of each run, for benchstat). An engine
// run several times has a Result per run (Repeat); every format then
// shows the median of each figure and its spread, and JSON and CSV add a
// summary. A figure is named everywhere by its path in the JSON
// (time_ns, disk.used_bytes, latency.p99_ns), so Step's documentation is
// the one definition of each. Every workload's report is made the same
// way, by package results. The JSON schema is Report's, field names as
// in the json tags:
//
//	{
//	  "run_id": "20240620T120000Z-3f9a1c",
//	  "environment": {cpu_model, cores, memory_bytes, kernel, os, arch, go_version,
//	                  data_path, filesystem, command_line[], seed, sync,
//	                  engine_versions{name: version}, engine_builds{name: build}, start},
//	  "results": [{
//	    "engine", "repeat", "version", "engine_description", "error", "outcome" (stopped,
//	    out_of_memory: the benchmark ended the run; absent otherwise),
//	    "options" (engine.Effective: TOML names, every default filled in),
//	    "config": {points, series, batch, seed, settle, settle_timeout_ns, reuse_iterator},
//	    "dataset": {path, created, reused, method, clone_ns, save_ns} (with a dataset of
//	               package dataset: reused, the write step did not run; else saved),
//	    "steps": [{
//	      name, label, points, time_ns, wall_ns, settle_ns, settle_timed_out,
//	      points_per_sec, us_per_point, cpu_user_ns, cpu_sys_ns,
//	      io: {read_bytes, write_bytes, cancelled_write_bytes} (absent if unavailable),
//	      logical_bytes, write_amp,
//	      disk: {used_bytes, actual_bytes, apparent_bytes, files},
//	      live_points, bytes_per_point,
//	      engine_size: {in_use_bytes, on_disk_bytes} (engines that report it),
//	      engine_metrics: {compact_bytes, compact_ns, stalls, stall_ns, cache_hits,
//	                       cache_misses, memtable_bytes} (those the engine reports),
//	      peak_rss_bytes, memory: {peak_private_bytes, peak_file_bytes, peak_shmem_bytes,
//	                               peak_go_bytes, samples} (see harness.Cost), open_fds,
//	      processes: {count, cpu_user_ns, cpu_sys_ns, peak_rss_bytes} (engines working in processes of their own),
//	      latency: {count, p50_ns, p99_ns, p999_ns, max_ns} (absent for compaction),
//	      distribution (the HdrHistogram behind latency, base64; -latency-log),
//	      percentiles: {p99.99_ns, ...} (those -percentiles asks for),
//	      verify: {expected, read, missing, unexpected, wrong, first_problem} (queries),
//	      error
//	    }]
//	  }],
//	  "summary": [{engine, runs, steps: [{name, figures: [{metric, unit, n, median, min, max}]}]}]
//	               (when an engine ran more than once)
//	}
//
// # On the command line
//
// The package registers itself as the workload ts (also timeseries) of
// package workload/suite, the default of benchmark-storage. Its settings
// are a Config: its own flags, -settle and -reuse-iterator, set it; the
// sizes, seed and intervals are the command's shared ones (suite.Common),
// copied in once when the workload is configured, and so is -dataset.
package timeseries
