// Package engine is one small interface over embedded, ordered key-value
// stores, chosen by name in the style of database/sql:
//
//	import _ "github.com/tsbench/storage/engine/rocksdb"
//
//	db, err := engine.Open("rocksdb", dir, nil)
//
// Every backend lives in its own package under engine/, registers itself
// from init, and passes the one acceptance suite in engine/enginetest.
// Open wraps every backend once, as database/sql wraps a driver, and
// enforces this contract for all of them: use after Close, Close with
// iterators open, a second Close, the key domain and the value and batch
// sizes of Limits, ranges written backwards (ErrInvalidRange), a
// directory open twice (ErrLocked, in one process or two), the rule for
// failed batches, the bounds of the shared Options, no call after one
// that failed with ErrBroken (every later call but Close fails with that
// error). Errors that mean the
// same on every engine are this package's Err sentinels, which backends
// wrap around their native error. A backend implements Backend, the
// thin side of that split (batches that need not count or check keys,
// BackendBatch), as a database/sql driver implements driver.Conn.
//
// Capabilities only some engines have are small optional interfaces found
// by type assertion. Each that has a fallback comes with a function that
// uses the engine's own or the fallback, and every engine from Open
// implements it: NewSnapshot (Snapshotter; fallback: one shared
// iterator), SetBounds (BoundsSetter; fallback: reopen the iterator),
// EstimateSize (SizeEstimator; fallback: scan the range), ReadMetrics
// (MetricsReporter; fallback: none known), Checkpoint (Checkpointer;
// fallback: Copy into a new engine), AppendEntries (an iterator's
// EntryAppender; fallback: First, Next, Key and Value per entry). Flusher and Backgrounder have no
// fallback: an engine from Open has them only when its backend does.
// What describes the backend rather than the data (Describer, Versioner,
// Processes, Sizer), and a local cluster's processes (Members), are not
// forwarded: BackendAs and Unwrap reach the backend, as errors.Unwrap
// reaches a wrapped error.
//
// Expiry is a capability chosen when an engine opens, not found on it
// later: Options.Expiry makes the engine drop entries by itself once they
// are that old (Badger's TTL, RocksDB's TTL database, Cassandra's TTL).
// A driver says it has one (Driver.Expiry); for any other, Open and
// Resolve refuse an Expiry with ErrNoExpiry before anything is created,
// and ExpiryOf tells what an open engine expires.
//
// # Keys
//
// Keys and values are byte strings; keys are ordered bytewise
// (bytes.Compare), so 0x00 sorts before 0xff. Every engine stores the
// keys of CommonLimits: 1 to 511 bytes, not beginning with "!badger!".
// Most store more (the empty key, keys of any length); what each cannot
// is in its Driver.Limits, which LimitsOf reports for an open engine. A
// write of a key outside them fails with ErrKeyNotSupported, or
// ErrTooLarge for a key too long; a Get of one finds nothing and a Delete
// of one does nothing. The largest value and batch an engine takes are
// in its Limits too (MaxValueSize, MaxBatchSize, MaxBatchOps), so that a
// caller can size its writes in advance: a write beyond them fails with
// ErrTooLarge before the backend sees it (Limits.CheckPut tells first).
//
// # Concurrency
//
// An Engine is safe for concurrent use: Get, Put, Delete, DeleteRange,
// NewIterator, NewBatch, Batch.Commit and Compact may be called from
// several goroutines at once, and so may a Snapshot's calls. A Batch or
// an Iterator belongs to one goroutine at a time. Close is called after
// every Iterator and Snapshot has been closed (it fails with
// ErrOpenIterators before) and every other call on the engine has
// returned; an engine from Open waits for calls still in flight rather
// than crash. Calls after Close return ErrClosed, and a Batch may still
// be closed then. A second Close of an engine, an Iterator, a Batch or a
// Snapshot returns nil and does nothing (io.Closer's convention, and
// database/sql's), so a deferred Close may follow an explicit one whose
// error was checked.
//
// # Deadlines
//
// OpenContext and CommitContext give up when their context is done, with
// an error wrapping the context's: a backend that can wait on a network
// (etcd: its cluster starting or answering, a commit's answer) honours
// the context while it waits (Driver.OpenContext, ContextCommitter); the
// others, whose calls cannot be interrupted, check it before they start.
// A batch whose commit gave up is kept, for a retry.
//
// # Ranges
//
// DeleteRange, Compact and IterOptions take a range [start, end): start
// inclusive, end exclusive, a nil end unbounded. Start equal to end is an
// empty range (nothing to delete, compact or read); start above end is a
// mistake, refused with ErrInvalidRange before the backend sees it
// (CheckRange), not read as empty.
//
// One engine orders keys only within a prefix (Cassandra's partitions,
// scattered by hash): its Limits.OrderedPrefix says how long, OrderPrefix
// reads it, and Open refuses an iterator or DeleteRange whose range spans
// prefixes with ErrUnordered (Limits.CheckOrdered), as it refuses an
// inverted one. Its Limits.AtomicPrefix says that its batches are atomic
// only within such a prefix.
//
// Iterators and snapshots see the state when they were made. Compact runs
// beside them unless the engine's Limits say ExclusiveCompact, in which
// case it fails with ErrOpenIterators while any is open.
//
// # Ownership of byte slices
//
// Get returns a slice the caller owns. Iterator.Key and Iterator.Value
// return slices owned by the iterator, valid only until its next
// positioning call or Close: copy them to keep them. This lets an engine
// hand over entries without allocating per entry. Slices passed to Put,
// Delete and Batch methods may be reused by the caller as soon as the call
// returns.
package engine
