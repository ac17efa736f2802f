// Package badger is the "badger" engine: Dgraph's pure-Go LSM tree with a
// value log (github.com/dgraph-io/badger/v4), its files directly in the
// engine directory.
//
//	import _ "github.com/tsbench/storage/engine/badger"
//
//	db, err := engine.Open("badger", dir, nil)
//
// Each Put, Delete and Batch.Commit is one Badger transaction, so a batch
// is atomic; one bigger than a transaction may hold (about 15% of
// write_buffer_size in bytes) fails with engine.ErrTooLarge rather than being
// split. Writes are blind, so conflict detection is off. Iterators hold a
// read-only transaction, their snapshot. A Badger iterator runs one way
// only: an engine iterator keeps a forward and a reverse one, and re-seeks
// at the current key when the direction changes. Keys are copied into a
// buffer the iterator reuses; values only when Value is called.
//
// Values shorter than [badger] value_threshold (1 MiB by default, so
// nearly all) are stored inline in the LSM tree; longer ones go to the
// value log, which value-log GC rewrites.
//
// # Durability
//
// Every commit is first appended to the memtable's write-ahead file,
// memory-mapped. Sync "none" leaves it there for the OS to write back: it
// survives a crash of the process, not of the machine. Sync "batch" sets
// SyncWrites, which syncs that file (and the value log) before the commit
// returns, so it survives a machine failure. Flush syncs them on demand.
// Close flushes the memtable to a table and, because this package sets
// CompactL0OnClose, merges level 0 into the tree, so Close takes longer
// than the flush alone.
//
// # Shared options
//
// CacheSize is the block cache (BlockCacheSize), WriteBufferSize the
// memtable size (MemTableSize), DisableCompression switches [badger]
// compression to none, BloomBitsPerKey becomes the false positive rate
// 0.6185^bits (off when negative), and Sync maps to SyncWrites as above.
// MaxOpenFiles has no equivalent: Badger keeps every table file open and
// memory-mapped. Badger's logger is set to warnings and errors only, which
// it writes to stderr. Expiry gives every entry written Badger's TTL, its
// end rounded up to the second: reads stop seeing an entry once it has
// expired, and compactions and value-log GC drop it.
//
// # Space reclamation
//
// A delete is a tombstone; the deleted value stays on disk, first in the
// memtable's write-ahead file, then in tables, until a compaction into the
// last level drops both. Compact closes and reopens Badger (flushing the
// memtable and merging level 0), runs Flatten, then value-log GC until
// nothing is left to rewrite; Badger cannot compact a key range, so the
// bounds are ignored. It fails with engine.ErrOpenIterators while
// iterators or snapshots are open (Limits.ExclusiveCompact). DeleteRange scans keys without reading values and
// deletes them in transactions of 4,096 keys: Badger has no range
// tombstone, and DropPrefix fits only ranges that are whole prefixes.
//
// Busy (engine.Backgrounder) reports whether an LSM level is over its
// target size, which is when Badger compacts; a memtable waiting to be
// flushed is not visible through its API.
//
// # Keys
//
// Keys must be 1 to 65,000 bytes long and must not start with "!badger!",
// which Badger reserves (the driver's Limits): engine.Open refuses such
// writes with engine.ErrKeyNotSupported or engine.ErrTooLarge, and Get and
// Delete treat such keys as absent.
//
// # Extras
//
// A snapshot is one read transaction, shared by its Gets and iterators;
// an iterator takes new bounds (SetBounds) in its transaction; metrics are
// the block cache's hits and misses; Checkpoint streams the live entries
// into a new database (a logical copy). Size estimates fall back to a
// scan: Badger estimates only whole prefixes. Table checksums are checked
// when a table is opened, and a damaged manifest or table fails with
// engine.ErrCorrupt; engine.Check runs VerifyChecksum, which verifies
// every block of every table. A directory without the ENGINE marker is
// recognised as a Badger store by its MANIFEST and KEYREGISTRY files.
package badger
