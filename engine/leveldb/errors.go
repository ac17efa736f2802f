package leveldb

import "errors"

var (
	// ErrLibrary wraps a failure status reported by LevelDB; the message
	// carries LevelDB's own text.
	ErrLibrary = errors.New("leveldb: operation failed")
	// ErrLocked is returned by Open when another process, or another open
	// engine in this one, holds the directory.
	ErrLocked = errors.New("leveldb: directory is in use; close the other engine or process using it first")
	// ErrTooLarge is returned by Batch.Commit for a key or value of 4 GiB
	// or more, which LevelDB's write batch cannot encode.
	ErrTooLarge = errors.New("leveldb: key or value of 4 GiB or more; split it")
)
