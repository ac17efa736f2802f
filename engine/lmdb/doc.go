// Package lmdb is the "lmdb" engine: LMDB 0.9.35, a copy-on-write B+tree
// in one memory-mapped file, through its C API called directly with cgo.
//
//	import _ "github.com/tsbench/storage/engine/lmdb"
//
//	db, err := engine.Open("lmdb", dir, nil)
//
// # Building
//
// Building it needs cgo and the library that scripts/build-lmdb.sh
// installs under /usr/local (scripts/setup.sh runs it): LMDB from the
// source the Go module github.com/PowerDNS/lmdb-go v1.9.4 carries, pinned
// by checksum, compiled as LMDB's own Makefile does plus -DNDEBUG, found
// through pkg-config (lmdb-tsbench.pc). Its soname, liblmdb-tsbench.so.0,
// is not Debian's liblmdb.so.0, which a process therefore never loads in
// its place; Build reads from the loaded library whether LMDB's
// mdb_assert checks are compiled in.
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
// write runs again. Remapping waits only for Gets and iterator fills in
// flight, not for open iterators, so a goroutine may keep an iterator open
// while it writes. The map costs address space, not memory or disk.
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
// Options.MaxReaders) with a cursor. It crosses cgo once for many entries:
// the cursor copies entries out of the map into a Go buffer until it is
// full or a bound is reached, and Go hands them out from it without
// allocating (engine/internal/cursor), so the map may move under an open
// iterator. SetBounds (engine.BoundsSetter) keeps the transaction, and so
// the view. A long-lived iterator keeps the pages of its snapshot from
// being reused, so writes meanwhile grow the file.
//
// LMDB allows one write transaction at a time, bound to an OS thread, so
// a Batch encodes its writes in Go memory (engine/internal/cbatch) and
// Commit applies them in one cgo call that runs one write transaction; Put
// and Delete are one transaction each. DeleteRange walks a cursor and
// deletes in transactions of up to 65536 keys. There is no background
// work, so the engine does not implement engine.Backgrounder.
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
// Checkpoint is LMDB's own compacting copy (mdb_env_copy2), and Check
// (engine.Checker) reads every entry, which finds pages that are not what
// their parents say they are. Snapshots, size estimates and metrics take
// the engine package's fallbacks. MDB_INVALID,
// MDB_CORRUPTED, MDB_PAGE_NOTFOUND and MDB_VERSION_MISMATCH wrap
// engine.ErrCorrupt, as does an empty data.mdb, which LMDB would take for
// a new store, and one shorter than its newest meta page says is in use
// (meta.go), which LMDB would open and fault on. A directory without the
// ENGINE marker is recognised as an LMDB store by the meta page at the
// start of data.mdb.
package lmdb
