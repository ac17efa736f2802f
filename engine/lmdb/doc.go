// Package lmdb is the "lmdb" engine: LMDB, a copy-on-write B+tree in one
// memory-mapped file, through github.com/PowerDNS/lmdb-go, which compiles
// LMDB's C source in (no system library needed).
//
//	import _ "github.com/tsbench/storage/engine/lmdb"
//
//	db, err := engine.Open("lmdb", dir, nil)
//
// The directory holds data.mdb (the tree) and lock.mdb (the reader table).
// All keys live in LMDB's unnamed root database. Keys are 1 to 511 bytes
// (LMDB's compile-time limit, the driver's Limits: engine.Open refuses
// others with engine.ErrKeyNotSupported or engine.ErrTooLarge), values
// up to 4 GiB.
//
// # Map size
//
// LMDB can hold no more than its memory map, and a write past it fails
// with MDB_MAP_FULL. This engine never lets that reach the caller: the map
// starts at Options.MapSize (1 GiB), and a write that finds it full is
// aborted, the map is multiplied by Options.GrowthFactor (2) and the whole
// write runs again. Remapping waits only for Gets and iterator moves in
// flight, not for open iterators, so a goroutine may keep an iterator open
// while it writes. The map costs address space, not memory or disk; the
// data file is kept as long as the map, sparsely (LMDB does the same with
// WriteMap), so its apparent size is the map size and its allocated size
// the data.
//
// # Sync profiles
//
// Commits are LMDB write transactions; each either fully happens or not.
//
//   - "none" sets MDB_NOSYNC: a commit returns once its pages are written
//     to the OS page cache, without fsync. It survives a crash of the
//     process. An OS crash or power loss may undo the last commits and, on
//     a file system that reorders writes, may corrupt the file.
//   - "none" with Options.WriteMap sets MDB_WRITEMAP|MDB_MAPASYNC, as the
//     2014 InfluxDB benchmark did: commits write into a shared writable map
//     and only ask the OS to flush it soon. It survives a process crash
//     (the map is the page cache), but an OS crash may lose recent commits
//     or corrupt the file, as LMDB documents for MDB_MAPASYNC.
//   - "batch" sets no sync flag: each commit fdatasyncs its data pages
//     (msync with WriteMap) and then writes the meta page synchronously,
//     so an acknowledged commit survives an OS crash or power loss.
//
// Flush (engine.Flusher) and Close force a synchronous flush of all
// committed data whatever the profile, so closing loses nothing.
//
// # Shared options
//
// LMDB reads through the OS page cache and stores pages uncompressed in a
// B+tree, so CacheSize, WriteBufferSize, DisableCompression, MaxOpenFiles
// and BloomBitsPerKey have no equivalent and are ignored. Only Sync
// applies.
//
// # Reads and writes
//
// Get runs in a short read transaction and returns a copy. Each iterator
// owns a read transaction (a snapshot and a reader slot, see
// Options.MaxReaders) with a cursor. Key and Value are copied out of the
// map into buffers the iterator reuses, so moving allocates nothing, and
// the map may move under an open iterator. A long-lived iterator keeps the
// pages of its snapshot from being reused, so writes meanwhile grow the
// file.
//
// LMDB allows one write transaction at a time, bound to an OS thread, so
// a Batch buffers its writes in Go and Commit applies them in one write
// transaction; Put and Delete are one transaction each. DeleteRange walks a
// cursor and deletes in transactions of up to 65536 keys. There is no
// background work, so the engine does not implement engine.Backgrounder.
//
// # Compaction
//
// LMDB reuses freed pages but never shrinks its file. Compact writes a
// compacting copy of the whole environment beside it, syncs it and renames
// it over data.mdb, so deleted data leaves the disk; see DB.Compact. It
// runs only with no iterator or snapshot open (Limits.ExclusiveCompact).
//
// # Extras and errors
//
// Checkpoint is LMDB's own compacting copy (mdb_env_copy2). Snapshots,
// iterator reuse, size estimates and metrics take the engine package's
// fallbacks. MDB_INVALID and MDB_CORRUPTED wrap engine.ErrCorrupt, as does
// an empty data.mdb, which LMDB would take for a new store, and one
// shorter than its newest meta page says is in use (meta.go), which LMDB
// would open and fault on. LMDB has no integrity check to run on demand
// (engine.Check says ErrNotSupported). A directory without the ENGINE
// marker is recognised as an LMDB store by the meta page at the start of
// data.mdb.
package lmdb
