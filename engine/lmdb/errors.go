package lmdb

// #include "binding.h"
import "C"

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fault"
)

// ErrReadersFull is returned when more reads run at once than the reader
// table holds.
var ErrReadersFull = errors.New("lmdb: too many concurrent readers; close idle iterators or raise [lmdb] max_readers")

// ErrWrongLibrary is returned by Open when the loaded LMDB library was
// compiled with another key size limit than the driver's Limits say.
var ErrWrongLibrary = errors.New("lmdb: the loaded library's key size limit is not 511 bytes; install LMDB with scripts/build-lmdb.sh")

// errTooLarge is a key or value of 4 GiB or more, which a batch cannot
// encode (and LMDB could not store).
var errTooLarge = fmt.Errorf("%w: lmdb: key or value of 4 GiB or more; split it", engine.ErrTooLarge)

// status is a code LMDB's C API failed with: one of LMDB's own (MDB_*,
// negative) or an errno, which it unwraps to, so that errors.Is finds
// syscall.ENOSPC and the like.
type status C.int

func (s status) Error() string { return C.GoString(C.mdb_strerror(C.int(s))) }

func (s status) Unwrap() error {
	if s > 0 {
		return syscall.Errno(s)
	}
	return nil
}

// is reports whether err is LMDB's code code.
func is(err error, codes ...C.int) bool {
	var s status
	if !errors.As(err, &s) {
		return false
	}
	for _, c := range codes {
		if C.int(s) == c {
			return true
		}
	}
	return false
}

// kinds maps LMDB's codes onto the engine's sentinels. MDB_BAD_VALSIZE is
// a key longer than LMDB stores, which engine.Open refuses before LMDB
// sees it.
var kinds = fault.Kinds{
	Corrupt: func(err error) bool {
		return is(err, C.MDB_INVALID, C.MDB_CORRUPTED, C.MDB_PAGE_NOTFOUND, C.MDB_VERSION_MISMATCH)
	},
	TooLarge: func(err error) bool { return is(err, C.MDB_BAD_VALSIZE) },
}

// wrap turns rc, a code LMDB returned during op, into an error that names
// the engine, the shared sentinel it means and, where there is one, the
// fix; 0 is no error.
func wrap(op string, rc C.int) error {
	switch rc {
	case 0:
		return nil
	case C.MDB_READERS_FULL:
		return fmt.Errorf("%w (%s)", ErrReadersFull, op)
	}
	return fmt.Errorf("lmdb: %s: %w", op, kinds.Wrap(status(rc)))
}
