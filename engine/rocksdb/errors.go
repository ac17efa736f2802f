package rocksdb

import "errors"

var (
	// ErrLibrary wraps a failure status reported by RocksDB; the message
	// carries RocksDB's own text.
	ErrLibrary = errors.New("rocksdb: operation failed")
	// ErrLocked is returned by Open when another process, or another open
	// engine in this one, holds the directory.
	ErrLocked = errors.New("rocksdb: directory is in use; close the other engine or process using it first")
	// ErrTooLarge is returned by Batch.Commit for a key or value of 4 GiB
	// or more, which RocksDB's write batch cannot encode.
	ErrTooLarge = errors.New("rocksdb: key or value of 4 GiB or more; split it")
)
