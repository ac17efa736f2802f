package levelcore

/*
#include "levelcore.h"

static void lc_free(const levelcore_ops *o, void *p) { o->free(p); }
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/fault"
)

// kinds reads the family's status texts, which start with the status kind
// ("Corruption: ...", "IO error: lock ...").
var kinds = fault.Kinds{
	Corrupt: func(err error) bool { return strings.Contains(err.Error(), "Corruption:") },
	Locked: func(err error) bool {
		m := err.Error()
		// "lock" alone would also match "block size".
		return strings.Contains(m, "IO error: lock ") || strings.Contains(m, "lock hold by current process") || strings.Contains(m, "While lock file")
	},
}

// errStats is a "leveldb.stats" text this package cannot read.
var errStats = errors.New("levelcore: unexpected leveldb.stats layout")

// cError is the error of op that msg, a message the library allocated,
// describes, which it frees; nil is no error.
func (d *DB) cError(op string, msg *C.char) error {
	if msg == nil {
		return nil
	}
	defer d.free(unsafe.Pointer(msg))
	return d.libError(op, C.GoString(msg))
}

// CError is the error of op, a backend's own call of the library, that
// msg describes: a message (char *) the library allocated, which it frees.
// Nil is no error.
func (d *DB) CError(op string, msg unsafe.Pointer) error { return d.cError(op, (*C.char)(msg)) }

// libError is the error of a failure of op that the library describes
// with msg: Library.Err, and the shared sentinel msg means, if any.
func (d *DB) libError(op, msg string) error {
	return kinds.Wrap(fmt.Errorf("%w: %s: %s", d.lib.Err, op, msg))
}

// free frees memory the library allocated.
func (d *DB) free(p unsafe.Pointer) { C.lc_free(d.ops, p) }
