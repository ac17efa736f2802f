// Package pebble is the engine registered as "pebble": CockroachDB's
// Pebble, a Go rewrite of the RocksDB LSM design, linked in as a Go module
// (github.com/cockroachdb/pebble v1.1.5). Import it for its side effect:
//
//	import _ "github.com/tsbench/storage/engine/pebble"
//
//	db, err := engine.Open("pebble", dir, nil)
//
// # Durability
//
// Every write goes to Pebble's write-ahead log (WAL) before the memtable.
//
//   - sync "none" commits with pebble.NoSync: the WAL record is queued in
//     memory and written to the file by Pebble's WAL goroutine moments
//     later, without fsync. A process crash can lose the last few
//     milliseconds of commits still queued; a machine failure can lose
//     anything not yet written back by the OS. This is slightly weaker
//     than the shared "none" profile, which assumes the write reached the
//     OS before the commit returned.
//   - sync "batch" commits with pebble.Sync: each commit returns only after
//     the WAL was fsynced (concurrent commits share one fsync), so it
//     survives a machine failure.
//
// Close waits for the WAL goroutine, then fsyncs the WAL, so no
// acknowledged write is lost on a clean Close under either profile.
//
// # Shared options
//
// Every shared option has a Pebble equivalent:
//
//   - cache_size: the block cache (pebble.NewCache).
//   - write_buffer_size: MemTableSize; it must stay below 4 GiB.
//   - disable_compression: NoCompression instead of Snappy, on every level.
//   - max_open_files: MaxOpenFiles, a soft limit on the table cache.
//   - bloom_bits_per_key: a table-level bloom filter on every level
//     (Pebble has none by default); a negative value turns it off.
//
// Pebble's own settings are Options, the [pebble] table of a config file
// (see configs/pebble.toml); their defaults are Pebble's.
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
// until the replaced tables are deleted, so deleted data leaves the disk.
//
// DB also implements engine.Flusher (a memtable flush) and
// engine.Backgrounder (flushes or compactions running, a full memtable
// queued, or a level past its compaction trigger).
//
// # Disk footprint of the WAL
//
// Pebble preallocates each WAL file to 110% of write_buffer_size
// (fallocate, keeping the file's length) and, besides the current one,
// keeps up to mem_table_stop_writes_threshold+1 old WAL files for reuse
// instead of deleting them. With the defaults the directory can therefore
// hold about 4 × 70 MiB = 280 MiB of WAL, whatever the amount of live
// data, and Compact does not give it back. Preallocated blocks not yet
// written count in a directory's allocated size (du) but not in its
// apparent size (du --apparent-size). A smaller write_buffer_size shrinks
// the WAL files.
//
// # Memory and cgo
//
// Built with cgo (the default here), Pebble allocates its block cache and
// memtables with C malloc, outside the Go heap, so the process RSS exceeds
// what the Go runtime reports. Pebble's block cache stores Go pointers in
// that memory, which a binary built with GOEXPERIMENT=cgocheck2 stops on
// ("fatal error: unpinned Go pointer stored into non-Go memory") at the
// first table read: do not build binaries containing this package with
// cgocheck2.
package pebble
