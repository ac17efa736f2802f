// Package bench holds go test benchmarks of every registered engine (see
// engine/all): the classic micro benchmarks of package workload/micro and
// the steps of the time-series workload of package workload, as
// sub-benchmarks named by key=value parts that benchstat can group by:
//
//	BenchmarkMicro/engine=rocksdb/op=readrandom/key=str16/value=100
//	BenchmarkTimeSeries/engine=lmdb/op=query
//
// Each reports ns/op from engine time alone (generating, encoding and
// checking data excluded, as in the benchmark-storage tool), latency
// percentiles, CPU time of all threads, and bytes on disk per entry or
// point after writes. Every read is checked; a wrong or missing entry
// fails the benchmark. Seeds are fixed, so every engine and every run gets
// the same data.
//
// Nothing here runs under a plain go test: benchmarks run only with
// -bench. Micro datasets are built once per engine, outside the timed
// loop: a read runs b.N reads over a store of -num entries (going round
// it as often as needed), a fill writes b.N entries into a new store, and
// overwrite and deleterandom start each round from a freshly loaded store.
// A time-series op runs the workload on b.N points up to that step,
// timing only the step.
//
// Flags (after the package, as go test passes them on): -num (entries
// loaded for reads, default 100k), -key (int4, str16 or ts24), -value-size,
// -order (seq or random, for write and readKey), -no-compression,
// -cache-size (bytes), -engines (comma-separated, default every engine).
//
// To compare two runs, with benchstat (go install
// golang.org/x/perf/cmd/benchstat@latest):
//
//	go test -run '^$' -bench 'Micro/engine=rocksdb' -count 10 ./bench > old.txt
//	# change something
//	go test -run '^$' -bench 'Micro/engine=rocksdb' -count 10 ./bench > new.txt
//	benchstat old.txt new.txt
//
// and to put engines side by side in one run:
//
//	go test -run '^$' -bench 'Micro/.*/op=readrandom' -count 6 ./bench > run.txt
//	benchstat -col /engine run.txt
//
// A time-series step needs its earlier steps on the same points, so give
// it a fixed size rather than letting b.N grow (each round runs every
// step up to the timed one):
//
//	go test -run '^$' -bench 'TimeSeries/engine=pebble' -benchtime 200000x -count 6 ./bench
//
// BenchmarkNative is the yardstick of the harness itself: for each C
// engine (leveldb, hyperleveldb, rocksdb, lmdb) it runs the write and
// query steps through the harness and through a C program doing the same
// work on the same library (bench/native, compiled by the benchmark with
// cgo's compiler and flags), which reads each entry either only by its
// pointers and lengths (the engine alone) or by copying it once, in
// rotating rounds, and reports per step harness time over each, best of
// the rounds, and the nanoseconds per entry the harness adds to the
// engine alone. BenchmarkNativeGo does the same for the query step of the
// pure-Go engines, against a Go loop over the library's own iterator:
//
//	go test -run '^$' -bench 'Native(Go)?$' -benchtime 5x -timeout 0 ./bench -engines rocksdb,leveldb,pebble
//
// -native-points and -native-series size each run (default 2M over 10k).
package bench
