package rocksdb

import (
	"errors"
	"fmt"
)

// ErrLibrary wraps a failure status reported by RocksDB; the message
// carries RocksDB's own text. A status that means one of engine's shared
// sentinels (corruption, a locked directory, a full disk) wraps that too.
var ErrLibrary = errors.New("rocksdb")

// errNoMemory is C memory running out.
var errNoMemory = fmt.Errorf("%w: out of memory", ErrLibrary)
