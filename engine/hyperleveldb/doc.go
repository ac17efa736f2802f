// Package hyperleveldb is the "hyperleveldb" engine: HyperDex's
// HyperLevelDB 1.0.2, a fork of LevelDB 1.14 that lets concurrent writers
// proceed in parallel and picks compactions differently to write less,
// reached through its C API with cgo. The database is the LevelDB
// family's of engine/internal/levelcore, shared with leveldb and rocksdb,
// compiled for HyperLevelDB's C API; this package holds HyperLevelDB's
// options, version and build.
//
//	import _ "github.com/tsbench/storage/engine/hyperleveldb"
//
//	db, err := engine.Open("hyperleveldb", dir, nil)
//
// # Building
//
// HyperLevelDB is packaged nowhere as a library, so
// scripts/build-hyperleveldb.sh compiles it from the source shipped in the
// npm package leveldown-hyper@2.0.0 (checksum pinned), with -O2 -DNDEBUG,
// into a shared library under /usr/local that this package finds through
// pkg-config (hyperleveldb.pc). Run it before go build, go vet or go test
// (scripts/setup.sh does); the first run compiles for about 15 s of CPU,
// later ones return at once. Build reads from the loaded library how it
// was built.
//
// HyperLevelDB uses the same C names (leveldb_*) and C++ namespace as
// LevelDB, so loaded as is beside the "leveldb" engine one library would
// silently run the other's code. The script renames both (the C API
// becomes hyperleveldb_*) and exports nothing else from the library;
// coexist_test.go checks this and runs both engines in one process.
//
// # Options
//
// Every shared option has an equivalent:
//
//   - CacheSize: the LRU block cache.
//   - WriteBufferSize: write_buffer_size, at most 1 GiB; HyperLevelDB
//     raises values below 64 KiB to 64 KiB.
//   - DisableCompression: no compression instead of Snappy.
//   - MaxOpenFiles: max_open_files, at most 50000; HyperLevelDB raises
//     values below 74 to 74.
//   - BloomBitsPerKey: HyperLevelDB's built-in bloom filter policy; a
//     negative value means no filter.
//   - Sync: WriteOptions.sync, see Durability.
//
// HyperLevelDB's own settings are in Options.
//
// # Durability
//
// With Sync "none", a commit returns once it is copied into the log file
// through a shared memory map, so it is in the OS page cache: it survives
// a crash of the process but not of the machine. With "batch", each Put,
// Delete and Batch.Commit also calls fdatasync on the log before
// returning, so it survives a machine failure. Close does not write the
// memtable out; the next Open replays the log, so acknowledged writes
// survive either way. DeleteRange commits in chunks, each one durable
// under "batch".
//
// # Behaviour
//
// Iterators see the database as of their creation (HyperLevelDB takes an
// implicit snapshot). They cross cgo once for many entries: a C cursor
// (the LevelDB-family core of engine/internal/levelcore, shared with
// leveldb and rocksdb) copies entries into a Go buffer until it is full or
// a bound is reached (HyperLevelDB's iterators have no bounds, so the
// cursor enforces them), and Go hands them out from it without allocating
// (engine/internal/cursor). Batches are encoded in Go
// (engine/internal/cbatch) and committed with one cgo call and one write.
//
// HyperLevelDB has no range deletion: DeleteRange scans and deletes in
// batches. Compact writes the memtable out and merges the levels holding
// the range into the deepest one, where deletes and what they shadow are
// dropped; when all tables sit in one level, it rewrites that level one
// level down instead, which plain LevelDB-style CompactRange never does
// (see scripts/hyperleveldb-compact.cc). DB also implements engine.Flusher.
//
// Of engine's optional interfaces, DB has HyperLevelDB's own snapshots
// (engine.Snapshotter), iterator reuse (engine.BoundsSetter: the cursor
// takes the new bounds and the same iterator, with the same view, seeks
// within them), size estimates (engine.SizeEstimator: ApproximateSizes,
// table bytes only) and one metric (engine.MetricsReporter): the bytes
// compactions and memtable write-outs wrote, from the Write(MB) column of
// "leveldb.stats", rounded to whole MiB per level. Compaction time comes
// in whole seconds per level only, too coarse for a benchmark step, and
// HyperLevelDB counts no stalls, cache lookups or memtable bytes, so
// those are absent. There is no checkpoint, nor a way through the C API
// to hold compactions and file deletions while tables are linked, so
// engine.Checkpoint copies the entries into a new HyperLevelDB.
//
// # Compact can lose data
//
// HyperLevelDB 1.0.2 runs a manual compaction (CompactRange, which Compact
// calls) without the per-level locks its automatic compactions take,
// while its "optimistic" compaction thread may merge or move the very
// tables the manual one is merging. Both then install their results, and
// one level can end up with tables whose key ranges overlap, which
// LevelDB's design forbids (its assertion, compiled out of a release
// build, aborts); reads then skip live keys and return deleted ones. The
// 2014 workload shows it at 100M points in six runs of seven and at 60M in
// most; an assertion-enabled build catches the overlap at 20M
// (results/hyperleveldb-race). repro/hyperleveldb reproduces it in C
// against the library alone. The benchmark reports it as the verification failure it
// is; nothing here works around it. HyperLevelDB 1.2.0 dropped the
// optimistic thread, but no registry serves its source.
//
// HyperLevelDB grows its log and MANIFEST files 1 MiB at a time through
// sparse memory maps and trims them on Close, so while the engine is open
// their apparent size exceeds the space they take on disk.
//
// Version reports "1.0.2 (LevelDB 1.14)": the release, from the library
// file's name, and the LevelDB version HyperLevelDB's C API gives.
//
// A directory holding files but no ENGINE marker is never adopted (it has
// no engine.Driver.Recognize): the files are the same as those
// leveldb and goleveldb write, and each of them would rewrite or
// delete what the others keep. To use such a store, write "hyperleveldb" into its
// ENGINE file.
package hyperleveldb
