// Package kyotocabinet is the engine registered as "kyotocabinet": Kyoto
// Cabinet's TreeDB, a B+tree whose pages are records of a hash database in
// one file, data.kct, through its C API (kclangc.h; Debian's
// libkyotocabinet-dev, 1.2.79, a release build). Import it for its side
// effect:
//
//	import _ "github.com/tsbench/storage/engine/kyotocabinet"
//
//	db, err := engine.Open("kyotocabinet", dir, nil)
//
// Building it needs cgo, a C++ compiler (binding.cc reaches one function
// the C API lacks, defragmentation) and libkyotocabinet-dev.
//
// # Snapshots
//
// Kyoto Cabinet has no snapshots: a cursor sees every write made while it
// walks, and a transaction does not hide its writes from other threads.
// The engine contract's snapshots are built here. Each write holds a lock
// that NewIterator and Get take shared, so neither sees half a batch; and
// while iterators are open, a write first records the value it replaces
// in each open iterator's view, which the iterator merges with its cursor
// (snapshot.go). With no iterator open that costs nothing; with some, one
// extra read per written key, and memory for the replaced values until the
// iterators close. An iterator whose view is still empty copies forward
// runs of records in C, many per cgo call, into its caller's buffer
// (engine.EntryAppender), holding writers off for the call; once a write
// has touched its range it moves entry by entry through the view.
//
// # Durability
//
// TreeDB keeps pages in its page cache (cache_size) and writes them to the
// file when it evicts them, at a transaction, Flush or Close.
//
//   - sync "none" opens the file as the 2011 LevelDB report did (no
//     OAUTOSYNC): a Put or Delete changes the cache only, so a crash of the
//     process loses what the cache held, and the next open repairs the
//     file. This is weaker than the profile's definition (a write survives
//     a crash of the process); batches are the exception, see below.
//   - sync "batch" opens it with OAUTOTRAN and OAUTOSYNC: every Put and
//     Delete is a transaction of its own, and every commit writes its pages
//     and fsyncs, so it survives a machine failure.
//
// A batch is one Kyoto Cabinet transaction (hard with sync "batch"),
// undone if any write fails. Committing one writes the pages it changed to
// the file, with their previous contents in a write-ahead log beside it
// (data.kct.wal), so a batch survives a crash of the process even with
// sync "none"; it also makes batches of scattered keys expensive, every
// page they touch written at each commit (the 2011 report left TreeDB out
// of its batch benchmark: it "does not support batch writes").
//
// Opening a file after a crash inside a transaction applies the log and
// unlinks it, and Kyoto Cabinet syncs neither; Open syncs the file and
// then its directory, so that a power cut cannot bring the applied log
// back to be applied again over later commits.
//
// # Shared options
//
//   - cache_size: the page cache (tune_page_cache, "pccap").
//   - disable_compression: no TCOMPRESS; otherwise pages are compressed
//     with Options.Compressor (LZO by default, as in the report).
//   - write_buffer_size, max_open_files and bloom_bits_per_key have no
//     equivalent and are ignored: TreeDB updates cached pages in place,
//     keeps one file and has no bloom filters.
//
// Kyoto Cabinet's own settings are Options, the [kyotocabinet] table of a
// config file (see configs/kyotocabinet.toml); their defaults are the 2011
// report's tuning. Tuning options, page size and buckets are fixed when
// the file is created and read back from it later. The compressor is not
// recorded in the file, only that pages are compressed, so this package
// records it in the file COMPRESSOR beside it and always opens the file
// with that one.
//
// # Behaviour
//
// DeleteRange walks a cursor over the range and removes each record, in
// steps of at most 4096 records that each hold the write lock; it is not
// atomic. Compact defragments the file (TreeDB::defrag): it writes the
// page cache out, moves the records over the space deletes freed and
// truncates the file, whatever the bounds, beside open iterators too.
//
// DB implements engine.Flusher: Flush writes the page cache out and
// fsyncs. It does not implement engine.Backgrounder: Kyoto Cabinet does
// its work in the calls that cause it.
//
// Build reads the loaded library file: Kyoto Cabinet's configure builds
// with -O2 -DNDEBUG unless told --enable-debug or --enable-devel, which
// turn assert() on; Debian's library imports no __assert_fail, so it
// reports "release: no assertions compiled in" and its path.
//
// A directory without the ENGINE marker is adopted as this engine's when
// its data.kct begins with Kyoto Cabinet's magic and the COMPRESSOR file
// this engine writes is beside it (engine.Driver.Recognize).
package kyotocabinet
