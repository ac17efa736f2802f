// Package leveldb is the engine registered as "leveldb": Google's LevelDB C
// library (Debian's libleveldb, 1.23) through github.com/jmhodges/levigo,
// with a little C of its own (binding.c) on the hot paths. Import it for
// its side effect:
//
//	import _ "github.com/tsbench/storage/engine/leveldb"
//
//	db, err := engine.Open("leveldb", dir, nil)
//
// Building it needs cgo and the LevelDB headers (libleveldb-dev).
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
// Batches are encoded in Go memory and applied with one cgo call that
// builds and writes a LevelDB write batch. Iterators read the snapshot
// LevelDB takes when they are created; LevelDB has no iterator bounds, so
// a small C cursor enforces them and moves with one cgo call per entry,
// and Key and Value point into LevelDB's memory without copying (levigo's
// own iterator copies both, four heap allocations per entry, and takes
// about twice the time). Like every LevelDB iterator they fill the block
// cache.
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
package leveldb
