package rocksdb

import (
	"errors"
	"strings"

	"github.com/tsbench/storage/engine/internal/fault"
)

// ErrLibrary wraps a failure status reported by RocksDB; the message
// carries RocksDB's own text. A status that means one of engine's shared
// sentinels (corruption, a locked directory, a full disk) wraps that too.
var ErrLibrary = errors.New("rocksdb: operation failed")

// kinds reads RocksDB's status texts, which start with the status kind
// ("Corruption: ...", "IO error: lock ...").
var kinds = fault.Kinds{
	Corrupt: func(err error) bool { return strings.Contains(err.Error(), "Corruption:") },
	Locked: func(err error) bool {
		m := err.Error()
		// "lock" alone would also match "block size".
		return strings.Contains(m, "IO error: lock ") || strings.Contains(m, "lock hold by current process") || strings.Contains(m, "While lock file")
	},
}
