package bbolt

import "errors"

var (
	// ErrEmptyKey is returned for a write with an empty key, which bbolt
	// cannot store.
	ErrEmptyKey = errors.New("bbolt: empty keys are not supported; use a key of at least one byte")
	// ErrLocked is returned by Open while another handle, in this process
	// or another, holds the data file.
	ErrLocked = errors.New("bbolt: data file is in use by another open engine; close that one first")
	// ErrBroken is returned by every call after Compact could not reopen
	// the compacted file; the data is in data.db, reopen the engine.
	ErrBroken = errors.New("bbolt: engine unusable after a failed compaction; close and reopen it")
)
