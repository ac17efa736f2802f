// Package leveldb is the engine registered as "leveldb": Google's LevelDB
// 1.23 through its C API, called directly with cgo. The database is the
// LevelDB family's of engine/internal/levelcore, shared with hyperleveldb
// and rocksdb, compiled for LevelDB's C API; this package holds LevelDB's
// options, version and build. Import it for its side effect:
//
//	import _ "github.com/tsbench/storage/engine/leveldb"
//
//	db, err := engine.Open("leveldb", dir, nil)
//
// # Building
//
// Building it needs cgo and the library that scripts/build-leveldb.sh
// installs under /usr/local (scripts/setup.sh runs it): LevelDB 1.23 from
// its pinned release source, compiled with -O2 -DNDEBUG, found through
// pkg-config (leveldb.pc). Debian's libleveldb is the same version built
// without NDEBUG, so its assert checks run on every hot path; its soname
// (libleveldb.so.1d) differs from this one's (libleveldb.so.1), and Build
// reads from the loaded library which kind a process runs.
//
// # Durability
//
// Every write is appended to LevelDB's log before the memtable, and the
// log is handed to the OS with write(2) before the write returns.
//
//   - sync "none" writes without fsync: a commit survives a crash of the
//     process but may be lost if the machine fails before the OS writes
//     it back.
//   - sync "batch" sets WriteOptions.sync: each commit fdatasyncs the log
//     before returning, so it survives a machine failure.
//
// Close loses nothing acknowledged: the memtable's contents are in the
// log, which the next Open replays.
//
// # Shared options
//
// Every shared option has a LevelDB equivalent:
//
//   - cache_size: an LRU block cache (leveldb_cache_create_lru).
//   - write_buffer_size: write_buffer_size, the memtable size.
//   - disable_compression: no compression instead of Snappy.
//   - max_open_files: max_open_files; LevelDB keeps 10 for its own files
//     and clamps the value to between 74 and 50000.
//   - bloom_bits_per_key: a bloom filter policy; a negative value turns
//     it off.
//
// LevelDB's own settings are Options, the [leveldb] table of a config file
// (see configs/leveldb.toml); their defaults are LevelDB's.
//
// # Behaviour
//
// Batches are encoded in Go memory (engine/internal/cbatch) and applied
// with one cgo call that builds and writes a LevelDB write batch.
// Iterators read the snapshot LevelDB takes when they are created. They
// cross cgo once for many entries: a C cursor copies entries into a Go
// buffer until it is full or a bound is reached (LevelDB's iterators have
// no bounds, so the cursor enforces them), and Go hands them out from it
// without allocating (engine/internal/cursor). Like every LevelDB
// iterator they fill the block cache.
//
// LevelDB has no range delete, so DeleteRange scans the range and deletes
// its keys in batches (engine/internal/rangedel); it is not atomic.
//
// Compact is LevelDB's CompactRange: it writes the memtable out, compacts
// every level overlapping the range into the next one, and returns once
// the replaced tables are deleted (unless an open iterator still reads
// them). It never rewrites the deepest level holding tables, so a delete
// that shares a table there with the entry it deletes keeps both on disk.
// That happens when both were in the memtable when it was written out
// (LevelDB places a memtable that overlaps no table straight in level 2),
// so DeleteRange first writes out a memtable that may hold puts: one early
// flush after a run of writes, none between consecutive range deletes.
// Point deletes of entries still in the memtable of a database small
// enough to live in one level are the case left: their space comes back
// only once later writes push that level down.
//
// DB implements engine.Flusher, by the same memtable write-out CompactRange
// starts with, given a range that no table can overlap. It does not
// implement engine.Backgrounder: LevelDB reports no pending or running
// compaction, only per-level file counts and sizes ("leveldb.stats").
//
// # Extras
//
// Of engine's optional interfaces, DB has LevelDB's own:
//
//   - engine.Snapshotter: a LevelDB snapshot, which its Gets and
//     iterators read through read options naming it.
//   - engine.BoundsSetter, on every iterator: the cursor takes the new
//     bounds and the same LevelDB iterator, with the same view, seeks
//     within them.
//   - engine.SizeEstimator: ApproximateSizes, the table bytes in the range
//     by their index blocks; the memtable is left out.
//   - engine.MetricsReporter: the bytes compactions and memtable
//     write-outs wrote, from the Write(MB) column of "leveldb.stats",
//     which LevelDB rounds to whole MiB per level. The same table gives
//     compaction time in whole seconds per level only, too coarse for a
//     benchmark step, and LevelDB counts no stalls, cache lookups or
//     memtable bytes ("leveldb.approximate-memory-usage" adds the block
//     cache in), so those metrics are absent.
//
// It has no engine.Checkpointer: LevelDB has no checkpoint, and its C API
// cannot hold compactions and file deletions while tables are linked and
// the MANIFEST copied, so a copy by hard links could name tables it lacks.
// engine.Checkpoint falls back to copying the entries, read through one
// iterator, into a new LevelDB.
//
// A directory holding files but no ENGINE marker is never adopted (it has
// no engine.Driver.Recognize): the files are the same as those
// hyperleveldb and goleveldb write, and each of them would rewrite or
// delete what the others keep. To use such a store, write "leveldb" into its
// ENGINE file.
package leveldb
