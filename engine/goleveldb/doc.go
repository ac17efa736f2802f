// Package goleveldb is the engine registered as "goleveldb": a pure Go port
// of LevelDB (github.com/syndtr/goleveldb v1.0.0). Import it for its side
// effect:
//
//	import _ "github.com/tsbench/storage/engine/goleveldb"
//
//	db, err := engine.Open("goleveldb", dir, nil)
//
// # Durability
//
// Every write goes to goleveldb's journal (its write-ahead log) before the
// memtable, and the journal is handed to the OS before the write returns.
//
//   - sync "none" writes without fsync: a commit survives a crash of the
//     process but may be lost if the machine fails before the OS writes
//     it back.
//   - sync "batch" sets WriteOptions.Sync: each commit fsyncs the journal
//     before returning, so it survives a machine failure.
//
// Close loses nothing acknowledged: every commit is already in the journal
// file, which the next Open replays.
//
// # Shared options
//
// Every shared option has a goleveldb equivalent:
//
//   - cache_size: BlockCacheCapacity, the LRU block cache.
//   - write_buffer_size: WriteBuffer, the memtable size.
//   - disable_compression: NoCompression instead of Snappy.
//   - max_open_files: OpenFilesCacheCapacity, the open table cache.
//   - bloom_bits_per_key: a bloom filter (filter.NewBloomFilter); a
//     negative value turns it off.
//
// goleveldb's own settings are Options, the [goleveldb] table of a config
// file (see configs/goleveldb.toml); their defaults are goleveldb's.
//
// # Behaviour
//
// goleveldb has no range delete, so DeleteRange scans the range and
// deletes its keys in batches (engine/internal/rangedel); it is not
// atomic. Iterators are goleveldb's own, bounded by a util.Range and
// reading the snapshot of their creation; Key and Value are passed through
// without copying.
//
// Compact is goleveldb's CompactRange: it flushes an overlapping memtable,
// compacts every overlapping level and returns once the replaced tables
// are deleted (unless an open iterator still reads them).
//
// DB implements engine.Backgrounder by recomputing goleveldb's compaction
// score from its "leveldb.stats" property; see Busy for what that misses.
// It does not implement engine.Flusher: goleveldb has no call that only
// flushes the memtable.
//
// Snapshots are goleveldb's own (GetSnapshot), size estimates its SizeOf
// and metrics its Stats (compaction bytes and time, write delays; it
// counts no cache hits). Iterator reuse falls back to a new iterator and
// Checkpoint to a copy through one iterator. Errors goleveldb marks as
// corruption wrap engine.ErrCorrupt.
//
// A directory holding files but no ENGINE marker is never adopted (it has
// no engine.Driver.Recognize): the files are the same as those
// leveldb and hyperleveldb write, and each of them would rewrite or
// delete what the others keep. To use such a store, write "goleveldb" into its
// ENGINE file.
package goleveldb
