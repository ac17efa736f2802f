package hyperleveldb

// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// ErrNoMemory is returned when C memory for an iterator runs out.
var ErrNoMemory = errors.New("hyperleveldb: out of memory")

// cError turns an error message HyperLevelDB malloc'ed during op into an
// error, freeing the message; a nil message is no error.
func cError(op string, msg *C.char) error {
	if msg == nil {
		return nil
	}
	s := C.GoString(msg)
	C.free(unsafe.Pointer(msg))
	return opError(op, s)
}

// opError is the error of a failure of op that HyperLevelDB describes
// with msg.
func opError(op, msg string) error {
	switch {
	case strings.HasPrefix(msg, "Corruption:"):
		return fmt.Errorf("%w: hyperleveldb: %s: %s", engine.ErrCorrupt, op, msg)
	case strings.HasPrefix(msg, "IO error: lock "):
		return fmt.Errorf("%w: hyperleveldb: %s: %s", engine.ErrLocked, op, msg)
	}
	return fmt.Errorf("hyperleveldb: %s: %s", op, msg)
}

// iterError is the error of a failure while iterating.
func iterError(msg string) error { return opError("iterate", msg) }
