package lmdb

import (
	"errors"
	"fmt"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"
)

var (
	// ErrKeySize is returned when a key to store is empty or longer than
	// LMDB's limit of 511 bytes.
	ErrKeySize = errors.New("lmdb: keys must be 1 to 511 bytes long")
	// ErrReadersFull is returned when more reads run at once than the
	// reader table holds.
	ErrReadersFull = errors.New("lmdb: too many concurrent readers; close idle iterators or raise [lmdb] max_readers")
	// ErrBroken is returned by every call after Compact swapped the data
	// file but could not reopen it; the data is on disk, reopen the engine.
	ErrBroken = errors.New("lmdb: environment lost after compaction; close and reopen the engine")
)

// wrap turns an error of the C library met during op into one that names
// the engine and, where there is one, the fix.
func wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case mdb.IsErrno(err, mdb.ReadersFull):
		return fmt.Errorf("%w (%s)", ErrReadersFull, op)
	case mdb.IsErrno(err, mdb.BadValSize):
		return fmt.Errorf("%w (%s)", ErrKeySize, op)
	}
	return fmt.Errorf("lmdb: %s: %w", op, err)
}
