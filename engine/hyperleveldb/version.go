package hyperleveldb

// #include <hyperleveldb/c.h>
import "C"

import (
	"strconv"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Version reports the LevelDB version HyperLevelDB 1.0.2 says it is based
// on, "1.14", as its C API reports it; it has no version call of its own.
func Version() string {
	return strconv.Itoa(int(C.hyperleveldb_major_version())) + "." + strconv.Itoa(int(C.hyperleveldb_minor_version()))
}

// Build reports how the loaded HyperLevelDB library was built, read from
// its file; the one scripts/build-hyperleveldb.sh installs says "release,
// built from source with -O2 -DNDEBUG".
var Build = sync.OnceValue(func() string {
	return libinfo.Build(unsafe.Pointer(C.hyperleveldb_open))
})

// libraryFile returns the path of the loaded HyperLevelDB library.
func libraryFile() (string, error) {
	return libinfo.File(unsafe.Pointer(C.hyperleveldb_open))
}
