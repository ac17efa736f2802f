package badger

import "errors"

var (
	// ErrEmptyKey is returned for a write with an empty key, which Badger
	// cannot store.
	ErrEmptyKey = errors.New("badger: empty keys are not supported; use a key of at least one byte")
	// ErrReservedKey is returned for a write with a key starting with
	// "!badger!", a prefix Badger keeps for itself.
	ErrReservedKey = errors.New(`badger: keys starting with "!badger!" are reserved by Badger; use another prefix`)
	// ErrBatchTooBig is returned by Commit for a batch that does not fit in
	// one Badger transaction (about 15% of write_buffer_size in bytes).
	ErrBatchTooBig = errors.New("badger: batch too big for one transaction; commit smaller batches or raise write_buffer_size")
	// ErrBroken is returned by every call after Compact could not reopen
	// the database; the data is on disk, reopen the engine.
	ErrBroken = errors.New("badger: engine unusable after a failed compaction; close and reopen it")
)
