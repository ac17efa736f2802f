// Package micro runs the classic key-value micro benchmarks on any
// engine.Engine: those of LevelDB's db_bench (2011) and of the LmdbJava
// report (2016), measured the same way on every engine and with every read
// checked.
//
//	res, err := micro.Run(micro.OpenerFor("rocksdb", engine.Options{}), dir, micro.Config{
//		Benchmarks: []string{micro.FillSeq, micro.FillRandom, micro.ReadRandom, micro.ReadSeq},
//	})
//
// # Benchmarks
//
// From db_bench: fillseq, fillrandom, fillsync (every Put synced; Num/1000
// entries, 100 to 10,000), fill100K (Num/1000 values of 100,000 bytes),
// fillbatch and fillrandbatch (Config.Batch writes per committed batch,
// 1000 by default; db_bench has only the sequential one), overwrite,
// readrandom, readseq, readreverse, deleterandom. From LmdbJava: write (a
// bulk load in batches, in Config.Order), readKey (a Get of every entry
// in the order it was written), readSeq and readRev (the code of readseq
// and readreverse), readCrc and readXxh64 (a forward scan computing a
// CRC32 or an XXH64 over every key and value). Benchmarks lists them all;
// DefaultBenchmarks is the set run by default.
//
// As in db_bench, every fill starts from a new, empty store (the files of
// the previous one are deleted first), and the other benchmarks work on
// what the last fill wrote: overwrite rewrites every entry, deleterandom
// deletes every entry (after which Gets must find nothing and scans
// nothing), and the reads read every entry once. A read with no fill
// before it first loads the store with write, untimed, and says so in
// Bench.Setup.
//
// # Data
//
// Entry i (0 <= i < Num) has key i in one of three encodings that all
// sort as the numbers do (KeyType: 4-byte big-endian int4, 16-digit str16,
// or the time-series workload's 24-byte ts24) and a value of
// Config.ValueSize bytes cut from a pool of pieces that are random bytes
// followed by repeats of them, so that a compressor shrinks values to
// about Config.CompressionRatio (db_bench's generator). Random orders are
// seeded permutations computed per position, and values are a function of
// the seed, the entry and the number of overwrites, so the harness stores
// nothing per entry: its memory is flat in Num, and any entry read back
// is checked against what was written without remembering it.
//
// Compression and cache size are engine settings: set
// engine.Options.DisableCompression and CacheSize in the Opener.
//
// # Measurement
//
// Time counts engine calls only: each Put, Get or Delete is timed alone
// (one latency sample each), a batch from its first Put to its Commit (one
// sample per batch), and a scan in chunks of ScanChunk entries, including
// the copy or hash of each entry the engine hands over (one sample per
// chunk). Generating keys and values and checking reads happen outside the
// timed spans. From Time come µs/op, ops/s and MB/s (10^6 bytes of keys
// and values, as in Go's testing package); latency percentiles come from
// an HDR histogram. CPU time of all threads (the engine's background
// compactions included), the I/O the OS charged to the process and the
// peak RSS are measured per benchmark with internal/measure. With
// Config.Cold each read starts with the store's files out of the page
// cache (harness.DropPageCache, untimed), so that its I/O is the disk's;
// Config.Percentiles adds latency percentiles to p50, p99, p99.9 and max.
//
// The JVM worker runs these benchmarks too, and with Config.Forks as JMH
// does: each benchmark in fresh JVMs of several iterations, its µs/op
// their mean and MeanError its 99.9% error (docs/jvm.md).
//
// After every benchmark that writes or deletes, the engine is closed (so
// that buffered writes are in their files, as the LmdbJava report
// measured), the store's directory measured (used, actual and apparent
// bytes, as package workload defines them; the reports' sizes are the
// used bytes) and compared with a flat array of the live keys and values
// (entries * (key + value) bytes; 1M entries of a 4-byte key and a
// 100-byte value make 104,000,000), and the engine reopened and the
// directory measured again: LSM engines leave what was still in memory
// in their logs at Close, uncompressed, and turn it into tables when they
// open. The close counts in CPU and I/O but not in Time.
//
// # Reports
//
// Report shows engines side by side, as workload.Report does (the same
// formats, HTML and repeated runs with their medians and spread
// included): its Page is the text, Markdown and HTML forms (report.Write),
// and it has WriteCSV, WriteJSON and WriteGoBench, whose lines benchstat
// reads like the output of go test -bench:
//
//	benchmark-storage -engine all -benchmarks default -num 100k -format gobench > old.txt
//	benchstat -col /engine old.txt           # engines side by side
//	benchstat old.txt new.txt                 # two runs, per engine and benchmark
//
// (go install golang.org/x/perf/cmd/benchstat@latest). For go test -bench
// on every registered engine, see the repository's bench package.
//
// # On the command line
//
// The package registers itself as the workload micro of package
// workload/suite, which -benchmarks picks. Its settings are a Config: its
// own flags (-benchmarks, -num, -value-size, -key, -order,
// -compression-ratio, and for the JVM engines -forks, -warmup-iterations
// and -iterations) set it, -batch, -seed, -percentiles and -cold are the
// command's, copied in once when the workload is configured, and a job
// carries it to the engine's process, a Go child or the JVM worker, under
// its JSON names.
package micro
