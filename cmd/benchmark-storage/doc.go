// Benchmark-storage runs a time-series workload, or the classic micro
// benchmarks (-benchmarks), on embedded key-value engines and prints them
// side by side: steps as rows, engines as columns, the best of each row
// marked, then tables of speed and CPU, storage I/O, memory and open
// files, latency percentiles and verification.
//
// Usage:
//
//	benchmark-storage [flags]
//	benchmark-storage compare [flags] old.json new.json
//	benchmark-storage merge [flags] a.json b.json ...
//
// merge makes one report of time-series JSON reports written by separate
// runs (an engine each, on other days), refusing files whose workload
// parameters, machine, memory limit or durability differ, or that hold
// one engine twice.
//
// A bare run writes 200k points over 1k series to every engine built in,
// one after another, and takes about a minute on two cores. To reproduce
// the 2014 InfluxDB comparison (100M points over 500k series in batches of
// 1000, LevelDB, RocksDB, HyperLevelDB and LMDB):
//
//	benchmark-storage -engine leveldb,rocksdb,hyperleveldb,lmdb -points 100M -series 500k
//
// More examples:
//
//	benchmark-storage -engine rocksdb -points 100M -series 500k -path /mnt/ssd
//	benchmark-storage -engine all -points 10M -series 50k -settle -out results.json
//	benchmark-storage -engine pebble,badger -sync batch -format markdown
//	benchmark-storage -engine rocksdb,pebble,lmdb -count 5 -out report.html -format json > results.json
//
// # The workload
//
// Each engine gets the same deterministic data (from -seed) in six steps:
// write N points; query all N, one ascending range scan per series,
// checking every value; delete the oldest half of every series; compact
// the whole key space; query the N/2 that remain, checking counts and
// values; write N/2 more with later timestamps. The size on disk is
// measured after every step. A wrong count or value fails the engine. See
// package github.com/tsbench/storage/workload for the key and value
// format and what is measured.
//
// # Flags
//
//	-engine list    engines to run: a name, a comma-separated list, all,
//	                or jvm: the JVM engines of the 2016 LmdbJava reports
//	                (lmdbjava, lmdbjni, lwjgl, leveldbjni, rocksdbjni,
//	                mapdb, mvstore, xodus, chroniclemap), which the JVM
//	                worker (jvm/, built by make) runs in a JVM each, by the
//	                protocol of protocol.md; -set lmdbjava.buffer=agrona
//	                gives LmdbJava Agrona's DirectBuffer instead of
//	                ByteBuffer (default all: every Go engine built in, in
//	                name order). Columns follow the order given.
//	-points count   points written in the first step (default 200k).
//	-series count   series the points are spread over, round-robin
//	                (default 1k: 200 points per series, as in 2014).
//	-batch count    points per write batch, each for a different series,
//	                so at most -series (default 1000, or -series if fewer).
//	-path dir       existing directory to put the data in (default the
//	                system temporary directory, $TMPDIR or /tmp).
//	-config file    TOML engine settings; without it every engine runs with
//	                the defaults in its code. See below.
//	-sync profile   durability for every engine: none or batch. Overrides
//	                the config's sync; default none.
//	-seed n         seed of the generated values (default 1).
//	-format name    output: table, markdown, csv, json, html (a page with
//	                charts), or gobench (Go benchmark lines) (default
//	                table).
//	-out file       also write the results to file, in the format its
//	                extension names (.txt table, .md markdown, .csv, .json,
//	                .html), or in -format if it has no extension; another
//	                extension is refused.
//	-count n        run each engine n times, each time in a fresh
//	                directory, the engines taking turns, and report the
//	                median and spread of every figure (default 1).
//	-keep           keep each engine's data and print where it is.
//	-workload name  ts (default; timeseries is the same), micro (the micro
//	                benchmarks; -benchmarks implies it), mixed (below),
//	                steady (the steady-state workload, package
//	                github.com/tsbench/storage/workload/steady), or
//	                crash: the crash check below.
//	-dataset dir    with ts or mixed, keep the written points (the mixed
//	                preload) in dir/ENGINE the first time, and start later
//	                runs with the same parameters from a clone (below).
//	-kills n        with -workload crash, how many times each engine's
//	                writer is killed, or the power cut under it (default
//	                10, at most 1000).
//	-fault name     with -workload crash, what strikes the writer: kill
//	                (default; SIGKILL), powercut (a power cut: below) or
//	                powercut-torn (a power cut that keeps a random half of
//	                the 4 KiB blocks written over synced data).
//	-stall-timeout d
//	                stop an engine process that uses no CPU and does no
//	                disk I/O for d, a deadlock, and report it in its column
//	                (default 2m; 0 waits forever).
//	-settle         after each step, wait until the engine's background work
//	                (compactions, flushes) stops and report that time apart,
//	                so deferred work is charged to the step that caused it.
//	-reuse-iterator read every series of a query step through one iterator
//	                given new bounds (the engine's SetBounds, or a close and
//	                reopen where it has none), as a time-series database
//	                would. Off by default: each series gets a new iterator,
//	                as in the 2014 tool, so query times stay comparable with
//	                it; the report's first line says when it was on.
//	-cache-size n   block cache of every engine in bytes, with an optional
//	                unit as in config files (64MiB, 64M is 64,000,000);
//	                overrides the config's cache_size (default 64 MiB).
//	-compression on|off
//	                block compression of every engine; overrides the
//	                config's disable_compression (default on).
//	-etcd-endpoints host:port,...
//	                the etcd engine uses this running cluster, under a run
//	                prefix of its own, instead of starting a local one;
//	                the same as -set etcd.endpoints=host:port,... Each
//	                engine process deletes its prefix when it closes the
//	                engine, unless -keep (one killed first leaves it).
//	-memory size    run each engine process in a memory cgroup of this
//	                size (4GiB), page cache included, as on a machine with
//	                that much RAM; an engine the kernel's OOM killer ends
//	                is reported out of memory with the step and points it
//	                reached. Needs root and the memory controller (cgroup
//	                v2, or v1 at /sys/fs/cgroup/memory). Default: no limit.
//	-max-time d     stop an engine still running after d (3h) and report
//	                the step, points and rate it reached, with the steps it
//	                finished. Default: none.
//	-profile dir    write each Go engine process's pprof profiles in dir:
//	                ENGINE-cpu.pprof of its whole run (written at its end:
//	                empty if the process was killed), ENGINE-heap.pprof
//	                rewritten every 10 s and at the end, so that one the
//	                OOM killer ends leaves its last heap. A local etcd
//	                cluster's members are processes of their own: their
//	                heaps with -set etcd.heap_profiles=dir. Default: none.
//	-interval d     length of the first over-time interval of each
//	                time-series step: throughput, latency percentiles and
//	                the engine's counters per interval, in JSON and as HTML
//	                charts; lengths double after every 1,800 intervals; a
//	                negative d records none (default 1s, at least 200ms).
//	-memory-sample d
//	                how often each engine process's memory by kind (private,
//	                mapped files, Go runtime) is sampled during every step;
//	                a negative d samples none, to measure the sampling's own
//	                cost (default 200ms).
//	-v              print every table of the text report; without it the
//	                text is the main table, throughput and what failed.
//	-version        print the tool's module version and commit, and exit
//	                (make build records the commit).
//	-set ENGINE.KEY=VALUE
//	                an engine's own setting as a config file writes it
//	                (rocksdb.max_background_jobs=8), or KEY=VALUE for a
//	                shared one (cache_size=64MiB); repeatable. An unknown
//	                engine or key exits 2 naming the valid ones.
//
// Counts (-points, -series, -batch, and -num and -value-size below) accept a plain number, a decimal suffix (10k, 1.5M, 100M, 2G; k
// is 1000) or an exponent (1e6). They must be whole and positive: 0, -5,
// abc and 1.5 are refused.
//
// # Micro benchmarks
//
// With -benchmarks, the tool runs the classic key-value micro benchmarks
// instead of the time-series workload, in the same way: each engine in its
// own process, with the same safety, progress, -format, -out and exit
// statuses. They are LevelDB's db_bench (fillseq, fillrandom, fillsync,
// fill100K, fillbatch, fillrandbatch, overwrite, readrandom, readseq,
// readreverse, deleterandom) and the LmdbJava report's (write, readKey,
// readSeq, readRev, readCrc, readXxh64); see package
// github.com/tsbench/storage/workload/micro for what each does and how it
// is measured. Every read is checked against what was written.
//
//	benchmark-storage -engine all -benchmarks fillseq,fillrandom,readrandom,readseq -num 1M -value-size 100
//	benchmark-storage -engine lmdb,rocksdb -benchmarks default -key int4 -order seq
//
// The report has a row per benchmark and a column per engine: µs/op, then
// ops/s and MB/s, latency percentiles, the storage after every write
// (used, actual and apparent bytes once the engine closed, overhead of the
// used bytes over a flat array of the keys and values, and the used bytes
// once reopened), CPU,
// I/O and memory, and what each read verified.
//
//	-benchmarks list   comma-separated benchmark names, in the order to run
//	                   them (a name may repeat); default for db_bench's and
//	                   LmdbJava's, each once; all for every name.
//	-num count         entries a fill writes (default 1M; fillsync and
//	                   fill100K write a thousandth, as db_bench does).
//	-value-size bytes  value size (default 100).
//	-key type          int4 (4-byte integer), str16 (16 decimal digits,
//	                   db_bench's) or ts24 (the time-series key); default
//	                   str16.
//	-order seq|random  order of write, which readKey follows (default random).
//	-compression-ratio fraction
//	                   how far values compress: the random fraction of
//	                   each value (default 0.5, as db_bench).
//	-batch count       writes per batch of fillbatch, fillrandbatch and
//	                   write (default 1000).
//
// -points, -series, -settle and -reuse-iterator belong to the time-series
// workload and are refused with -benchmarks, as the micro flags are
// without it.
//
// -format gobench prints one line per benchmark, engine and run in the
// Go benchmark format, which benchstat reads, for the micro benchmarks
// and for the time-series steps alike; with it, -out to a .txt file is
// written in that format too. To compare two runs, or engines side by
// side (go install golang.org/x/perf/cmd/benchstat@latest):
//
//	benchmark-storage -engine rocksdb -benchmarks default -num 100k -count 6 -format gobench > old.txt
//	benchmark-storage -engine rocksdb -benchmarks default -num 100k -count 6 -format gobench > new.txt
//	benchstat old.txt new.txt
//	benchstat -col /engine old.txt
//
// The JSON output of a micro run has the same run_id, environment and
// summary (with benchmarks for steps) and, per engine and run, engine,
// repeat, version, options, config (benchmarks, num, key_type,
// order, value_size, compression_ratio, batch, seed), error and
// benchmarks: [{name, ops, key_size, value_size, setup, time_ns, wall_ns,
// us_per_op, ops_per_sec, mb_per_sec, bytes, cpu_user_ns, cpu_sys_ns, io,
// peak_rss_bytes, latency, latency_of, storage (disk, reopened, entries,
// flat_bytes, overhead_pct, bytes_per_entry), verify, error}].
//
// # Configuration
//
// The file given by -config holds the shared options as top-level keys
// (sync, cache_size, write_buffer_size, disable_compression,
// max_open_files, bloom_bits_per_key) and each engine's own options in a
// table named after it, such as [rocksdb]. One file can configure every
// engine; each engine reads the top-level keys and its own table. The
// files in the repository's configs/ directory list every key with its
// default, but nothing is read unless named: the defaults live in the
// code. Integer keys also take a size with a unit, as a string: "64MiB"
// (KiB, MiB, GiB, TiB are powers of 1024) or "64M" (k, M, G, T are powers
// of 1000). Every table in the file is checked, so a mistake in the table
// of an engine that is not run is still an error. The options each
// engine actually ran with, every default filled in, are in the JSON and
// CSV output under the names the file uses.
//
//	benchmark-storage -engine rocksdb -config configs/rocksdb.toml
//
// A setting takes one path: flag, then the workload's settings or the
// engine's options, then the job, then the child, then engine.Open. The
// parent parses the flags once. The flags several workloads share
// (-points, -series, -batch, -seed, -interval, -dataset) are the
// command's, handed to every workload; every other workload flag
// (-benchmarks, -num, -writers, -rate, -kills, -retention, ...) belongs
// to the workload that defines it, into its own typed settings (package
// github.com/tsbench/storage/workload/suite, where each workload
// registers itself). The workload picked (-workload, or -benchmarks for
// the micro benchmarks) refuses the flags it does not take, and
// completes and checks its settings and the shared ones once. An
// engine's options are resolved once, by engine.Resolve, from the
// -config file (read once), then -sync (or the workload's own
// durability: batch for the crash check), -cache-size, -compression and
// -etcd-endpoints, then each -set, every one applied as if written in
// the file, with every default filled in and every bound checked
// (engine.Options.WithDefaults and the backend's own). Each child's job
// (protocol.md) carries the workload's name, its settings as JSON under
// that name, the shared settings, the data directory, and the options as
// engine.Effective spells them, the same map the results record. The
// child decodes the settings as its workload's, turns the options back
// into engine.Options (engine.FromEffective), and the workload hands
// them to engine.Open. A child parses no flag, reads no file and checks
// nothing again.
//
// # How it runs
//
// The tool creates a fresh directory benchmark-storage-* in -path with one
// subdirectory per engine, and never deletes anything it did not create:
// each engine's data is removed as soon as its run ends (unless -keep),
// then the run directory.
//
// Each engine runs in a child process of this same program, one after
// another, so that its memory, CPU time and I/O counters are its own, one
// engine's caches and pending writeback do not help or slow the next (the
// parent syncs between engines), and a crash loses only that engine's
// result: its column shows the error and the others are kept.
//
// A child sends its result through a pipe, never through the data's file
// system, which may be full. Whatever it prints itself (a library's
// warnings, a panic or a C++ abort with its trace) is kept by the parent:
// when the engine failed it goes to a log file under the user's cache
// directory ($XDG_CACHE_HOME or ~/.cache, benchmark-storage/logs), whose
// path the FAILED line names, and the column shows one line: "exited with
// status 2: panic: ...", "was killed by a signal (bus error)". A child
// that uses no CPU and does no disk I/O for -stall-timeout is sent
// SIGQUIT (a Go program prints its goroutines to the log) and killed. A
// failure on a full file system says "no space left on device", whatever
// the engine reported (LMDB says EIO, Badger and HyperLevelDB die of
// SIGBUS), and the next engine runs once the failed one's data is gone.
// The parent hands each child its whole job (engine, directory, workload
// and every setting, checked once in the parent) as one JSON document on
// its stdin. The internal -child-job flag that makes the program a child
// is refused unless its parent is this program and gave it the result
// pipe.
//
// Every numeric setting has an upper bound, checked with the rest of the
// input before anything starts: -batch 1M points, cache_size the
// machine's memory, write_buffer_size 16 GiB, max_open_files 2^24,
// bloom_bits_per_key 100, -kills 1000, -stall-timeout 24h. -out is opened
// before the run, so that /dev/full or a full disk is refused at once.
//
// Progress goes to stderr: a bar with rate and ETA when stderr is a
// terminal, otherwise one line when a step starts and ends and one every
// ten seconds of a long step. It is drawn from the workload's ticker
// goroutine, never inside the timed work. The report goes to stdout.
//
// Ctrl-C (or SIGTERM) stops the running engine and removes its data, and
// the whole run directory unless -keep kept finished engines; the engines
// that finished are still reported, and the exit status is 130.
//
// # The mixed workload
//
// -workload mixed runs, for -duration, -writers goroutines ingesting
// points while -readers goroutines query them (package
// github.com/tsbench/storage/workload/mixed):
//
//	benchmark-storage -workload mixed -engine pebble,rocksdb,lmdb -writers 2 -readers 2 -duration 15s -series 2k
//
//	-writers n      writers, each owning an equal share of the series (default 1).
//	-readers n      readers (default 1); -writers 0 or -readers 0 leaves one side out.
//	-duration d     how long both run, after the preload (default 10s).
//	-rate n         cap on points written per second over all writers;
//	                0 is refused (leave -rate out for no cap).
//	-mix list       weights of the query kinds last, recent, range, scan and
//	                multi: last=40,recent=30 (default last=40,recent=30,range=20,scan=5,multi=5).
//	-window d       data time a recent or multi query reads (default 1m).
//	-skew s         uniform (default), zipfian, or an exponent below 1.
//	-points n       the preload, written before the clock starts (default none).
//
// The report gives, per operation kind, the count, ops/s, latency
// percentiles, the verification of every point read and the throughput of
// every second, in every -format; -count repeats as for the other
// workloads.
//
// # Datasets
//
// -dataset dir keeps, per engine, what the time-series write step (or the
// mixed preload) wrote, with a manifest of the parameters that determine
// it (package github.com/tsbench/storage/workload/dataset). A later run
// with the same parameters clones it into its data directory and skips
// the write step, and says so: "write step not run: reused the dataset
// ...". The datasets are checked before anything is created: one written
// with other parameters is refused in one line naming each (exit status
// 2), never silently reused.
//
// # The crash check
//
// -workload crash kills each engine's writer -kills times and checks what
// survives, under -sync batch unless -sync says none:
//
//	benchmark-storage -workload crash -engine all -kills 5
//
// In each round a writer process opens the engine in the same directory,
// commits numbered batches of -batch entries (default 100, of 100-byte
// values) and reports each commit that returned through a pipe; it is
// killed with SIGKILL at a seeded random moment within 500ms of opening.
// A reader process then reopens the store, times the open (recovery),
// runs the engine's own integrity check where it has one (engine.Check),
// and reads every entry back. Per engine: kills, acknowledged_batches,
// lost_batches (acknowledged but not wholly present), torn_batches
// (partly present), reopen_errors, recovery p50 and max; any loss, tear
// or reopen error fails the engine. JSON has them under results[].crash.
//
// A process kill leaves the OS running, so what the engine handed to the
// OS survives it: it cannot show what a power loss or a kernel crash
// would lose. Sync none promises survival of a process crash only; batch
// also of a machine crash, which -fault powercut checks:
//
//	benchmark-storage -workload crash -fault powercut -engine pebble -kills 20
//
// The engine's data directory is then a FUSE file system (package
// internal/powercut) over a store in the engine's run directory, which
// keeps what is written but not synced pending, file data and directory
// entries alike. The writer commits until it has 1 to 200 batches
// acknowledged (seeded), and in half of the rounds a moment into the
// next commit; then the power is cut, which drops everything pending,
// the writer is killed, and the store is mounted again, showing only
// what was synced, for the reader. Under sync batch any loss fails the
// engine; under none lost batches are counted (loss_allowed) but only a
// torn batch or a failed reopen fails it. It needs root and /dev/fuse,
// else it stops with exit status 2; mounts whose server a killed run
// left dead in -path are detached before a run.
//
// # Output
//
// The table, markdown, csv, json and html formats show every step of
// every engine and the environment. The text table is at most 120
// columns wide: a table with more engines than fit is split. With
// -count, each figure is the median of the engine's runs, followed by
// its spread, "±8%": the larger distance from the median to the smallest
// or largest run.
//
// When an engine reports metrics of its own work (Pebble, Badger,
// RocksDB, LevelDB), every time-series step records them in
// engine_metrics, read before the step and after it (after -settle's
// wait): compact_bytes and compact_ns (bytes flushes and compactions
// wrote and their time), stalls and stall_ns (write stalls), cache_hits
// and cache_misses (block cache lookups), each as its increase over the
// step, and memtable_bytes at the step's end; the mixed workload records
// them over its run. The reports then add a table of them, "-" where an
// engine does not report one: a missing metric is unknown, not zero.
//
// The html format is one self-contained page (inline SVG and CSS, no
// script, nothing loaded from anywhere, so it opens offline and prints):
// per step, bars of time, throughput, CPU, write amplification and peak
// memory per engine (on a log scale when the figures span more than a
// factor of 50), with the min-max range of repeated runs as whiskers; the
// DB size after each step as lines; latency percentile curves; then every
// table and the environment, engine versions and builds included.
//
// Every figure is defined once, by the Go field behind it: the JSON
// names it, and so do the CSV and the summaries, by its path in the JSON
// (time_ns, io.write_bytes, disk.used_bytes, latency.p99_ns). See go doc
// github.com/tsbench/storage/workload.Step for the time-series steps and
// .../workload/micro.Bench for the micro benchmarks; units are in the
// names (_ns, _bytes, _per_sec).
//
// JSON holds everything:
//
//	{
//	  "run_id": "20240620T120000Z-3f9a1c",
//	  "environment": {cpu_model, cores, memory_bytes, kernel, os, arch,
//	                  go_version, data_path, filesystem, command_line,
//	                  seed, sync, engine_versions, engine_builds, start},
//	  "results": [{engine, repeat (1 to -count), version, options (as a
//	              config file names them, every default filled in: the
//	              shared keys, and the engine's own under its name),
//	              config (points, series, batch, seed, settle,
//	              reuse_iterator), error,
//	              steps: [{name, label, points, time_ns, wall_ns,
//	              settle_ns, points_per_sec, us_per_point, cpu_user_ns,
//	              cpu_sys_ns, io, logical_bytes, write_amp, disk
//	              (used_bytes, actual_bytes, apparent_bytes, files),
//	              engine_metrics, peak_rss_bytes, open_fds, latency,
//	              verify, error}]}],
//	  "summary": [{engine, runs, steps: [{name, figures: [{metric, unit,
//	              n, median, min, max}]}]}]   (with -count 2 or more)
//	}
//
// CSV is long: one row per figure under the header
// run_id,start,engine,repeat,step,metric,stat,value,unit,text. The value
// column holds numbers only (a bool is 1 or 0); a figure that is text (a
// label, a version, an error) has its own column, text. stat is "value"
// for a run's figure and, with -count, "median", "min", "max" or "n" for
// the summary rows of an engine. The run id and start time let the CSV of
// several runs be stacked.
//
// # Comparing runs
//
// benchmark-storage compare reads two JSON reports and shows, per figure,
// engine and step (or benchmark), the old and new median with their
// spread, the change in percent, and whether it is beyond the noise: with
// at least three runs a side, a Mann-Whitney U test as benchstat does,
// the change counting when p < -alpha (0.05). With three runs a side p is
// never below 0.1, so run -count 4 or more to see a change at 0.05.
//
//	benchmark-storage -engine pebble,bbolt -count 5 -format json > old.json
//	(change something)
//	benchmark-storage -engine pebble,bbolt -count 5 -format json > new.json
//	benchmark-storage compare old.json new.json
//	benchmark-storage compare -format html -out compare.html old.json new.json
//
// Its flags: -format table, markdown or html; -out file (.txt, .md or
// .html); -alpha level; -metric, the figures to compare by their JSON
// names (time_ns, latency.p99_ns...) or all (default: time, CPU user
// time, bytes written, DB size, p99 latency and peak RSS).
//
// # Exit status
//
//	0    every engine ran and every check passed
//	1    an engine failed or a check did not pass (see its column)
//	2    bad input: a flag, count, engine name, path or config file is
//	     wrong; one line on stderr says which and how to fix it, and
//	     nothing was created or deleted
//	130  interrupted
package main
