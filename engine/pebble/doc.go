// Package pebble is the engine registered as "pebble": CockroachDB's
// Pebble, a Go rewrite of the RocksDB LSM design, linked in as a Go module
// (github.com/cockroachdb/pebble/v2 v2.1.7, the major version CockroachDB
// ships). Import it for its side effect:
//
//	import _ "github.com/tsbench/storage/engine/pebble"
//
//	db, err := engine.Open("pebble", dir, nil)
//
// # Durability
//
// Every write goes to Pebble's write-ahead log (WAL) before the memtable.
//
//   - sync "none" commits with pebble.Sync on a WAL file whose sync does
//     nothing (walsync.go): each commit returns once Pebble's WAL
//     goroutine has written its record to the file, without fsync, so it
//     survives a crash of the process; a machine failure can lose anything
//     not yet written back by the OS. (pebble.NoSync returns before that
//     write, and lost acknowledged commits when the process was killed.)
//   - sync "batch" commits with pebble.Sync: each commit returns only after
//     the WAL was fsynced (concurrent commits share one fsync), so it
//     survives a machine failure.
//
// Close waits for the WAL goroutine, then fsyncs the WAL, so no
// acknowledged write is lost on a clean Close under either profile.
//
// # On-disk format
//
// New stores get the newest format major version Pebble v2.1.7 supports
// (FormatNewest, FormatValueSeparation): columnar table blocks, and WAL
// records that say how far the log was synced, so that replay tells a
// torn write from the end of the log. Value separation itself stays off,
// as by default. A store written by Pebble v1 opens and is upgraded in
// place on its first open; Pebble v1 cannot open it afterwards.
//
// # Shared options
//
// Every shared option has a Pebble equivalent:
//
//   - cache_size: the blocks' share of the block cache (pebble.NewCache).
//     Pebble charges its memtables to the same cache (Cache.Reserve),
//     which RocksDB and LevelDB keep apart from theirs: a cache of
//     cache_size alone holds no block at all once memtables of
//     write_buffer_size fill it (measured: 0 hits and 0 bytes cached
//     at 64 MiB each). So the cache is made cache_size plus the
//     memtables Pebble may hold before it stops writes
//     (mem_table_stop_writes_threshold * write_buffer_size), the same
//     bound on blocks and memtables together as RocksDB's block cache
//     plus its two write buffers.
//   - write_buffer_size: MemTableSize; it must stay below 4 GiB.
//   - disable_compression: no compression instead of Snappy, on every
//     level.
//   - max_open_files: MaxOpenFiles, a soft limit on the table cache.
//   - bloom_bits_per_key: a table-level bloom filter on every level
//     (Pebble has none by default); a negative value turns it off.
//
// Pebble's own settings are Options, the [pebble] table of a config file
// (see configs/pebble.toml); their defaults are Pebble's.
// max_concurrent_compactions is the upper end of Pebble's compaction
// concurrency range, whose lower end stays 1.
//
// # Behaviour
//
// DeleteRange writes a single range tombstone; with a nil end, the
// tombstone ends just past the largest key present. Iterators are
// Pebble's own, bounded by IterOptions and reading the snapshot of their
// creation; Key and Value are passed through without copying.
//
// Compact flushes the memtable, compacts every level overlapping the
// range (the whole key span of the tables when a bound is nil) and waits
// until the replaced tables are deleted, so deleted data leaves the
// tables; old copies can stay in recycled WAL files (below).
//
// Every extra of the engine package is Pebble's own: snapshots
// (engine.NewSnapshot, a Pebble snapshot), iterator reuse (SetBounds),
// size estimates (EstimateDiskUsage), metrics (Pebble's Metrics, with
// write stalls counted from its events) and checkpoints (Pebble's
// Checkpoint: hard-linked tables, copied logs). Errors Pebble marks as
// corruption wrap engine.ErrCorrupt. engine.Check runs CheckLevels, which
// reads every table (block checksums) and checks the levels' order. A
// directory without the ENGINE marker is recognised as a Pebble store by
// an OPTIONS file naming a pebble_version.
//
// DB also implements engine.Flusher (a memtable flush) and
// engine.Backgrounder (flushes or compactions running, or a level that
// Pebble scores as due for compaction).
//
// # Disk footprint of the WAL
//
// Pebble preallocates each WAL file to 110% of write_buffer_size
// (fallocate, keeping the file's length), so a WAL's unwritten space
// counts in the directory's allocated size (du, actual_bytes) but not in
// its used or apparent size. With the defaults that is up to 70 MiB per
// WAL file; a smaller write_buffer_size shrinks it.
//
// Pebble also recycles WAL files: once a memtable is flushed, its WAL is
// kept, up to mem_table_stop_writes_threshold+1 of them, and a later WAL
// is written over it from the start instead of into a new file. A
// recycled log keeps its stale records at full length until new ones
// overwrite them, and its preallocated space with them. With the defaults
// the directory can so hold three WAL files of up to 70 MiB each of data
// already in tables, or deleted, and they count in every size, used bytes
// included. The memtable starts at 256 KiB and doubles up to
// write_buffer_size, so the first WAL files are small and the recycled
// ones grow as the store is written. Compact does not give this space
// back; the next open deletes the old files, in the background.
//
// # Memory and cgo
//
// Built with cgo (the default here), Pebble allocates its block cache and
// memtables with C malloc, outside the Go heap, so the process RSS exceeds
// what the Go runtime reports. The package's tests pass in a binary built
// with GOEXPERIMENT=cgocheck2, which checks that no Go pointer is stored
// in that memory.
//
// # Fatal errors
//
// Pebble's fatal errors (a commit that cannot be written, most often to a
// full disk) would end the process with os.Exit(1). Here the call that
// met one returns an error wrapping engine.ErrBroken, and
// engine.ErrNoSpace for a full disk, which engine.Open's wrapper returns
// from every later call too: Pebble stopped holding its commit mutex, so
// nothing goes into it again and Close leaves its files open until the
// process exits. A fatal error
// on Pebble's own background goroutines still ends the process, now as a
// panic. A flush that fails on a full disk is retried by Pebble without
// end, and writes stall behind it.
package pebble
