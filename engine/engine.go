package engine

// Engine is an open key-value store. See the package documentation for
// concurrency and slice ownership rules, and for the keys it stores.
type Engine interface {
	// Get returns a copy of the value stored under key, or an error
	// wrapping ErrNotFound.
	Get(key []byte) ([]byte, error)
	// Put stores value under key, replacing any previous value. A key the
	// engine cannot store, or a value longer than it takes (see Limits),
	// fails with ErrKeyNotSupported or ErrTooLarge.
	Put(key, value []byte) error
	// Delete removes key; deleting an absent key is not an error, nor is
	// deleting one the engine cannot store.
	Delete(key []byte) error
	// DeleteRange removes every key k with start <= k < end. Engines without
	// a native range delete scan and delete in chunks, so concurrent readers
	// may observe a partly deleted range; once it returns, all are gone.
	// Start equal to end is an empty range: nothing happens. Start above
	// end fails with ErrInvalidRange (see CheckRange).
	DeleteRange(start, end []byte) error
	// NewBatch returns an empty batch of writes applied atomically by Commit.
	NewBatch() Batch
	// NewIterator returns an iterator over the keys within opts' bounds,
	// seeing a consistent snapshot taken when it was created. It starts
	// unpositioned: call First, Last or Seek. Bounds with LowerBound above
	// UpperBound fail with ErrInvalidRange.
	NewIterator(opts IterOptions) (Iterator, error)
	// Compact rewrites the storage of keys in [start, end) so that deleted
	// data leaves the disk; nil bounds mean unbounded. It returns when done.
	// Start equal to end does nothing; start above end fails with
	// ErrInvalidRange.
	// Open iterators and snapshots keep their view. An engine whose Limits
	// say ExclusiveCompact cannot compact beside them and fails with
	// ErrOpenIterators instead; CommonLimits says so too, so portable code
	// closes them first.
	Compact(start, end []byte) error
	// Close releases the engine. It fails with ErrOpenIterators while any
	// iterator or snapshot is open, and the engine stays open. Once it has
	// closed the engine, a second Close returns nil and does nothing, as
	// database/sql's DB.Close; every other call returns ErrClosed.
	Close() error
}

// Batch collects puts and deletes to apply all-or-nothing in one commit.
//
// Commit either applies every operation or none. On success the batch is
// empty, ready for reuse. On failure it is left unchanged, Len and Size
// included: the operations are the caller's data, so an error must not
// drop them silently, and every engine can keep them (a native batch
// survives a failed write). The caller then retries it (after
// ErrNoSpace was dealt with), splits it (after ErrTooLarge) or drops it
// with Reset. A put of a key the engine cannot store or a value longer
// than it takes, and every operation from the one that takes the batch
// past the engine's MaxBatchSize or MaxBatchOps (see Limits), is held
// back, never reaching the engine, and makes every Commit fail with
// ErrKeyNotSupported or ErrTooLarge until Reset.
type Batch interface {
	// Put records a put; key and value are copied.
	Put(key, value []byte)
	// Delete records a delete; key is copied.
	Delete(key []byte)
	// Len reports how many operations the batch holds.
	Len() int
	// Size reports the bytes of the keys and values recorded since the
	// batch was last emptied, the same for every engine: a caller caps its
	// batches with it. An engine's own overhead per entry is not counted.
	Size() int
	// Reset empties the batch without applying it, keeping it open.
	Reset()
	// Commit applies every operation atomically, honoring Options.Sync, and
	// empties the batch so it can be reused; see Batch for a failure.
	Commit() error
	// Close releases the batch, dropping uncommitted operations. A second
	// Close returns nil (io.Closer's convention), so a deferred Close may
	// follow an explicit one.
	Close() error
}

// IterOptions bounds an iterator. Nil bounds mean unbounded. LowerBound
// equal to UpperBound is an empty range; LowerBound above UpperBound is
// refused with ErrInvalidRange rather than read as empty.
type IterOptions struct {
	// LowerBound is the smallest key the iterator may return (inclusive).
	LowerBound []byte
	// UpperBound is the first key the iterator may not return (exclusive).
	UpperBound []byte
}

// Iterator walks keys in order, forward with Next or in reverse with Prev.
// Each positioning method reports whether the iterator now rests on a key;
// false means exhausted or failed, and Err tells which.
type Iterator interface {
	// First moves to the smallest key within bounds.
	First() bool
	// Last moves to the largest key within bounds.
	Last() bool
	// Seek moves to the smallest key >= key within bounds.
	Seek(key []byte) bool
	// Next moves to the following key.
	Next() bool
	// Prev moves to the preceding key.
	Prev() bool
	// Valid reports whether the iterator rests on a key.
	Valid() bool
	// Key returns the current key, owned by the iterator (see package doc).
	Key() []byte
	// Value returns the current value, owned by the iterator.
	Value() []byte
	// Err returns the first error the iterator met, if any.
	Err() error
	// Close releases the iterator. It returns Err's error, if any; a
	// second Close returns nil (io.Closer's convention), so a deferred
	// Close may follow an explicit one.
	Close() error
}

// The optional interfaces below are capabilities only some backends have,
// found by type assertion. Those with a fallback any engine can run
// (Snapshotter, BoundsSetter, SizeEstimator, MetricsReporter,
// Checkpointer) come with a function that picks the backend's own or the
// fallback, and every engine from Open implements them; Flusher and
// Backgrounder have none, so an engine from Open implements them only
// when its backend does.

// Flusher is implemented by engines that buffer writes in memory and can
// force them to storage (memtable flush, fsync). Callers fall back to
// nothing: an engine without it has no such buffer.
type Flusher interface {
	Flush() error
}

// Backgrounder is implemented by engines that do deferred work on their own
// threads (LSM compactions, value-log GC). Busy reports whether such work is
// running or pending, so a benchmark can wait for it and charge it to the
// step that caused it. Callers fall back to watching the directory size.
type Backgrounder interface {
	Busy() (bool, error)
}
