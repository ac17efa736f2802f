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
	switch {
	case strings.HasPrefix(s, "Corruption:"):
		return fmt.Errorf("%w: hyperleveldb: %s: %s", engine.ErrCorrupt, op, s)
	case strings.HasPrefix(s, "IO error: lock "):
		return fmt.Errorf("%w: hyperleveldb: %s: %s", engine.ErrLocked, op, s)
	}
	return fmt.Errorf("hyperleveldb: %s: %s", op, s)
}
