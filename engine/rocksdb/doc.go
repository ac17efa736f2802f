// Package rocksdb is the engine registered as "rocksdb": RocksDB 11.8.1
// through its C API, called directly with cgo. The database is the LevelDB
// family's of engine/internal/levelcore, shared with leveldb and
// hyperleveldb, compiled for RocksDB's C API; this package holds RocksDB's
// options, version and build, and what only RocksDB has (metrics from an
// event listener, Backgrounder, checkpoints). Import it for its side
// effect:
//
//	import _ "github.com/tsbench/storage/engine/rocksdb"
//
//	db, err := engine.Open("rocksdb", dir, nil)
//
// Building it needs cgo, a C++ compiler, pkg-config and RocksDB installed
// with its rocksdb.pc, which scripts/install-rocksdb.sh (run by make setup)
// does: the library is RocksDB's official release build, the one inside
// the rocksdbjni jar, pinned by version and sha256. A distribution's
// librocksdb may be a debug build with assertions and test sync points
// (Debian's 7.8.3 is), so Build reports what the loaded library file says
// of itself, and the tests fail unless it is the release library.
//
// # Durability
//
// Every write goes to RocksDB's write-ahead log before the memtable, and
// the log is handed to the OS before the write returns.
//
//   - sync "none" writes without fsync: a commit survives a crash of the
//     process but may be lost if the machine fails before the OS writes
//     it back.
//   - sync "batch" sets WriteOptions.sync: each commit fsyncs the log
//     before returning, so it survives a machine failure.
//
// Close loses nothing acknowledged: memtables not yet flushed are in the
// log, which the next Open replays.
//
// # Shared options
//
// Every shared option has a RocksDB equivalent:
//
//   - cache_size: the LRU block cache of the block-based table format.
//   - write_buffer_size: write_buffer_size, the size of one memtable.
//   - disable_compression: no compression instead of Snappy.
//   - max_open_files: max_open_files (RocksDB's own default, -1, keeps
//     every table open; the shared default is 1000).
//   - bloom_bits_per_key: a full bloom filter per table; a negative value
//     turns it off.
//   - expiry: opens RocksDB's TTL database (rocksdb_open_with_ttl) with it
//     as its TTL, and sets it as the ttl option, with which compactions
//     pick the files above the last level that hold data that old, rather
//     than waiting for writes to reach them. Every value carries its write
//     time, 4 bytes, which reads strip; an entry past its TTL is still
//     read until a compaction drops it. A database written with an
//     expiry is opened with one, and one written without it without.
//
// RocksDB's own settings are Options, the [rocksdb] table of a config file
// (see configs/rocksdb.toml). Their defaults are RocksDB 11's, except
// max_background_jobs, which follows the 2014 benchmark.
//
// # Behaviour
//
// Batches are encoded in Go memory in RocksDB's own write batch format
// (engine/internal/cbatch) and handed over in one copy at Commit.
// Iterators use RocksDB's iterate bounds and read the snapshot RocksDB
// takes when they are created. They cross cgo once for many entries: a C
// cursor copies entries into a Go buffer until it is full or a bound is
// reached, and Go hands them out from it without allocating
// (engine/internal/cursor). Like RocksDB's defaults they fill the block
// cache.
//
// DeleteRange is RocksDB's native range tombstone, written atomically.
// RocksDB needs an end key, so an unbounded end becomes the key just past
// the largest key present when DeleteRange starts.
//
// Compact flushes the memtables, then runs CompactRange through every
// level, the last one included (bottommost level compaction
// kForceOptimized), so that deleted data and tombstones leave the disk; it
// returns once done.
//
// RocksDB reserves disk space ahead of writes with fallocate: each new
// write-ahead log reserves write_buffer_size plus 10%, which shows in the
// allocated size (du) but not the apparent size (du --apparent-size) until
// the log is flushed away. The MANIFEST reserves 64 KiB at a time instead
// of RocksDB's 4 MiB, which would otherwise be most of a small database's
// size.
//
// DB implements engine.Flusher (a waited memtable flush) and
// engine.Backgrounder, which reports busy while any of the properties
// rocksdb.mem-table-flush-pending, rocksdb.compaction-pending,
// rocksdb.num-running-flushes or rocksdb.num-running-compactions is
// non-zero.
//
// # Extras
//
// Of engine's optional interfaces, DB has RocksDB's own, through its C
// API:
//
//   - engine.Snapshotter: a RocksDB snapshot, named in the read options of
//     its Gets and iterators.
//   - engine.BoundsSetter, on every iterator: the iterate bounds of the
//     same RocksDB iterator change in place, which RocksDB supports
//     between seeks, so the iterator keeps its view. RocksDB's C API has no
//     call to reset bounds (rocksdb_iter_refresh moves the view to the
//     present instead): the cursor owns the read options the iterator
//     reads its bounds through and rewrites them. An iterator made without
//     an upper bound and given one later is kept to it by the cursor; one
//     made with an upper bound and then given none is the one case that
//     takes a new RocksDB iterator from the same read options, which sees
//     the same snapshot if it came from one, and the database as it is now
//     otherwise.
//   - engine.SizeEstimator: GetApproximateSizes over table files (by their
//     index blocks) and memtables.
//   - engine.MetricsReporter, without RocksDB's statistics, which would
//     cost every read and write: the bytes flushes and compactions wrote
//     and the time compactions ran, counted by an event listener; write
//     stalls (the times a stall condition began) and the time writes waited
//     in them, from rocksdb.cf-write-stall-stats,
//     rocksdb.db-write-stall-stats and rocksdb.dbstats; and the memtables'
//     bytes, rocksdb.cur-size-all-mem-tables. Block cache hits and misses
//     exist only in the statistics, so they are absent.
//   - engine.Checkpointer: RocksDB's checkpoint, which flushes, then
//     hard-links the table files into the new directory.
package rocksdb
