// Benchmark-storage runs a time-series workload on embedded key-value
// engines and prints them side by side: steps as rows, engines as columns,
// the best of each row marked, then tables of speed and CPU, storage I/O,
// memory and open files, latency percentiles and verification.
//
// Usage:
//
//	benchmark-storage [flags]
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
//	-engine list    engines to run: a name, a comma-separated list, or all
//	                (default all: every engine built in, in name order).
//	                Columns follow the order given.
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
//	-format name    output: table, markdown, csv or json (default table).
//	-out file       also write the results to file, in the format its
//	                extension names (.txt table, .md markdown, .csv, .json),
//	                else in -format.
//	-keep           keep each engine's data and print where it is.
//	-settle         after each step, wait until the engine's background work
//	                (compactions, flushes) stops and report that time apart,
//	                so deferred work is charged to the step that caused it.
//
// Counts (-points, -series, -batch) accept a plain number, a decimal
// suffix (10k, 1.5M, 100M, 2G; k is 1000) or an exponent (1e6). They must
// be whole and positive: 0, -5, abc and 1.5 are refused.
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
// code. The options each engine actually ran with are in the JSON output.
//
//	benchmark-storage -engine rocksdb -config configs/rocksdb.toml
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
// Progress goes to stderr: a bar with rate and ETA when stderr is a
// terminal, otherwise one line when a step starts and ends and one every
// ten seconds of a long step. It is drawn from the workload's ticker
// goroutine, never inside the timed work. The report goes to stdout.
//
// Ctrl-C (or SIGTERM) stops the running engine and removes its data, and
// the whole run directory unless -keep kept finished engines; the engines
// that finished are still reported, and the exit status is 130.
//
// # Output
//
// The table, markdown and csv formats show every step of every engine and
// the environment. JSON holds everything:
//
//	{
//	  "environment": {cpu_model, cores, memory_bytes, kernel, os, arch,
//	                  go_version, data_path, filesystem, command_line,
//	                  seed, sync, engine_versions, start},
//	  "results": [{engine, version, options (the shared options in
//	              effect, and Engine: the engine's own table from -config
//	              or null for its defaults), config (points, series,
//	              batch, seed, settle), error, steps: [{name,
//	              label, points, time_ns, wall_ns, settle_ns,
//	              points_per_sec, us_per_point, cpu_user_ns, cpu_sys_ns,
//	              io, logical_bytes, write_amp, disk (actual_bytes,
//	              apparent_bytes, files), peak_rss_bytes, open_fds,
//	              latency, verify, error}]}]
//	}
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
