package hyperleveldb

// #include <stdlib.h>
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"
)

var (
	// ErrLocked is returned by Open when the directory is held by another
	// open database, in this process or another one.
	ErrLocked = errors.New("hyperleveldb: directory is in use by another open database; close that one first")
	// ErrCorruption is returned when HyperLevelDB finds damaged data.
	ErrCorruption = errors.New("hyperleveldb: data corruption")
	// ErrTooLarge is returned by Batch.Commit when a key or value in the
	// batch is 4 GiB or larger; nothing of the batch is written.
	ErrTooLarge = errors.New("hyperleveldb: key or value of 4 GiB or more in batch; split it")
	// ErrNoMemory is returned when C memory for an iterator runs out.
	ErrNoMemory = errors.New("hyperleveldb: out of memory")
)

// cError turns an error message HyperLevelDB malloc'ed during op into an
// error, freeing the message; a nil message is no error.
func cError(op string, msg *C.char) error {
	if msg == nil {
		return nil
	}
	s := C.GoString(msg)
	C.free(unsafe.Pointer(msg))
	switch {
	case strings.HasPrefix(s, "Corruption:"):
		return fmt.Errorf("%w: %s: %s", ErrCorruption, op, s)
	case strings.HasPrefix(s, "IO error: lock "):
		return fmt.Errorf("%w (%s: %s)", ErrLocked, op, s)
	}
	return fmt.Errorf("hyperleveldb: %s: %s", op, s)
}
