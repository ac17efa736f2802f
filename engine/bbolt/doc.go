// Package bbolt is the "bbolt" engine: etcd's pure-Go B+tree
// (go.etcd.io/bbolt), one memory-mapped file, data.db, in the engine
// directory, with every key in a single bucket.
//
//	import _ "github.com/tsbench/storage/engine/bbolt"
//
//	db, err := engine.Open("bbolt", dir, nil)
//
// Each Put, Delete and Batch.Commit is one bbolt write transaction; bbolt
// allows one writer at a time, so concurrent writers queue. A batch buffers
// its operations in Go and applies them in its Commit's transaction.
// Iterators are cursors in a read-only transaction: they see the snapshot
// of their creation, and Key and Value point straight into the map.
//
// # Durability
//
// Sync "none" sets bbolt's NoSync: a commit writes its pages to the file
// but does not fsync, so it survives a crash of the process, not of the
// machine. Close and Flush fsync the file. Sync "batch" fsyncs every commit
// (bbolt writes the pages, fsyncs, then writes the meta page and fsyncs
// again), so an acknowledged commit survives a machine failure.
//
// # Shared options
//
// bbolt reads through the OS page cache and has no memtable, table files,
// compression or bloom filters, so CacheSize, WriteBufferSize,
// DisableCompression, MaxOpenFiles and BloomBitsPerKey have no equivalent
// and are ignored. Only Sync applies. Its own settings are in Options.
//
// # Long-lived iterators block file growth
//
// An open iterator holds a read transaction, and bbolt can only remap its
// file once every read transaction has ended. A writer whose commit needs
// a larger map therefore waits for all open iterators to close: readers in
// other goroutines only delay it, but a goroutine that writes while it
// holds an iterator of its own would wait forever. This package maps
// InitialMmapSize (16 GiB by default) at open, so no remap happens until the
// file outgrows it; beyond that, close iterators before writing from the
// same goroutine. An open iterator also keeps the pages freed after it
// began from being reused, so long scans beside heavy writes grow the file.
//
// # Space reclamation
//
// Deleting keys frees pages for reuse but never shrinks the file. Compact
// rewrites the whole file into a packed copy and renames it over data.db
// (the bounds are ignored); it fails with engine.ErrOpenIterators while
// iterators or snapshots are open (Limits.ExclusiveCompact). DeleteRange
// deletes with a cursor in transactions of at most 10,000 keys.
//
// # Keys
//
// Keys must be 1 to 32,768 bytes long (the driver's Limits), so engine.Open
// refuses others with engine.ErrKeyNotSupported or engine.ErrTooLarge.
//
// # Extras
//
// A snapshot (engine.NewSnapshot) is one read transaction shared by its
// Gets and iterators; an iterator takes new bounds (SetBounds) without a
// new transaction; Checkpoint writes the file as one read transaction sees
// it (Tx.CopyFile). Its one metric is free_bytes, the bytes of its free
// and pending pages (Stats.FreeAlloc); it has no size estimate, which
// falls back to a scan. A file whose meta pages are damaged, or that is
// shorter than they say, fails Open with engine.ErrCorrupt. engine.Check
// runs bbolt's Tx.Check, which walks every page. A directory without the
// ENGINE marker is recognised as a bbolt store by the meta page at the
// start of data.db.
package bbolt
