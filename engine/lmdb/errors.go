package lmdb

import (
	"errors"
	"fmt"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine/internal/fault"
)

// ErrReadersFull is returned when more reads run at once than the reader
// table holds.
var ErrReadersFull = errors.New("lmdb: too many concurrent readers; close idle iterators or raise [lmdb] max_readers")

// kinds maps LMDB's errors onto the engine's sentinels. MDB_BAD_VALSIZE is
// a key longer than LMDB stores, which engine.Open refuses before LMDB
// sees it.
var kinds = fault.Kinds{
	Corrupt: func(err error) bool {
		return mdb.IsErrno(err, mdb.Invalid) || mdb.IsErrno(err, mdb.Corrupted) ||
			mdb.IsErrno(err, mdb.PageNotFound) || mdb.IsErrno(err, mdb.VersionMismatch)
	},
	TooLarge: func(err error) bool { return mdb.IsErrno(err, mdb.BadValSize) },
}

// wrap turns an error of the C library met during op into one that names
// the engine, the shared sentinel it means and, where there is one, the
// fix.
func wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case mdb.IsErrno(err, mdb.ReadersFull):
		return fmt.Errorf("%w (%s)", ErrReadersFull, op)
	}
	return fmt.Errorf("lmdb: %s: %w", op, kinds.Wrap(err))
}
