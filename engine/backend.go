package engine

// Backend is what a Driver's Open returns: an engine's own work, which
// Open wraps into an Engine. The wrapper keeps the contract (use after
// Close, Close with iterators open, a second Close, the key domain and
// the value and batch sizes of Limits, counting a batch's operations and
// bytes, inverted and empty ranges, no call after ErrBroken), so a
// backend does none of it and may assume none of it is broken: it never
// sees a DeleteRange or Compact of an empty or inverted range, inverted
// iterator bounds, or a value or batch beyond its Limits.
//
// A backend that cannot go on returns an error wrapping ErrBroken from
// the call that found out, once: the wrapper refuses every later call but
// Close with that error, so the backend keeps no such state to refuse
// them itself. Its Close must still work then, and a call that was
// already waiting for one of its locks when it broke must not use what
// it lost.
//
// A backend makes batches one of two ways, which Open checks: a thin
// backend has NewBatch() BackendBatch; an Engine registered as a driver
// (a decorator over another engine, the engine/memory model) has its
// own NewBatch() Batch. Optional interfaces (Snapshotter, Checkpointer,
// ...) are found on the backend by type assertion.
type Backend interface {
	Reader
	Put(key, value []byte) error
	Delete(key []byte) error
	DeleteRange(start, end []byte) error
	Compact(start, end []byte) error
	Close() error
}

// BackendBatch is a backend's batch. Commit applies every operation or
// none; on success the batch is empty, on failure unchanged (Batch's
// rule, which enginetest checks). A backend batch may also have Reset()
// to empty it without a commit; without one the wrapper closes it and
// asks for a new one. Close may be called after the engine's Close.
type BackendBatch interface {
	Put(key, value []byte)
	Delete(key []byte)
	Commit() error
	Close() error
}

// batchMaker is how a thin backend makes batches.
type batchMaker interface {
	NewBatch() BackendBatch
}

// engineBatchMaker is how an Engine registered as a driver makes them.
type engineBatchMaker interface {
	NewBatch() Batch
}

// batchesOf returns how be makes batches, or nil if it cannot.
func batchesOf(be Backend) func() BackendBatch {
	switch m := be.(type) {
	case batchMaker:
		return m.NewBatch
	case engineBatchMaker:
		return func() BackendBatch { return m.NewBatch() }
	}
	return nil
}
