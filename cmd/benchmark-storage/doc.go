// Benchmark-storage runs a time-series workload, or the classic micro
// benchmarks (-benchmarks), on embedded key-value engines and prints them
// side by side: steps as rows, engines as columns, the best of each row
// marked, then tables of speed and CPU, storage I/O, memory and open
// files, latency percentiles and verification.
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
//	-format name    output: table, markdown, csv, json, or gobench for the
//	                micro benchmarks (default table).
//	-out file       also write the results to file, in the format its
//	                extension names (.txt table, .md markdown, .csv, .json),
//	                else in -format.
//	-keep           keep each engine's data and print where it is.
//	-settle         after each step, wait until the engine's background work
//	                (compactions, flushes) stops and report that time apart,
//	                so deferred work is charged to the step that caused it.
//	-cache-size n   block cache of every engine in bytes; overrides the
//	                config's cache_size (default 64 MiB).
//	-compression on|off
//	                block compression of every engine; overrides the
//	                config's disable_compression (default on).
//
// Counts (-points, -series, -batch, and -num, -value-size and -cache-size
// below) accept a plain number, a decimal suffix (10k, 1.5M, 100M, 2G; k
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
// (actual and apparent bytes once the engine closed, overhead over a flat
// array of the keys and values, and the actual bytes once reopened), CPU,
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
// -points, -series and -settle belong to the time-series workload and are
// refused with -benchmarks, as the micro flags are without it.
//
// -format gobench prints one line per benchmark and engine in the Go
// benchmark format, which benchstat reads; with it, -out to a .txt file
// is written in that format too. To compare two runs, or engines side by
// side (go install golang.org/x/perf/cmd/benchstat@latest):
//
//	for i in 1 2 3 4 5 6; do benchmark-storage -engine rocksdb -benchmarks default -num 100k -format gobench; done > old.txt
//	for i in 1 2 3 4 5 6; do benchmark-storage -engine rocksdb -benchmarks default -num 100k -format gobench; done > new.txt
//	benchstat old.txt new.txt
//	benchstat -col /engine old.txt
//
// The JSON output of a micro run has the same environment and, per
// engine, engine, version, options, config (benchmarks, num, key_type,
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
