package leveldb

// #include <leveldb/c.h>
import "C"

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Version reports the version of the linked LevelDB library, such as "1.23".
func Version() string {
	return fmt.Sprintf("%d.%d", C.leveldb_major_version(), C.leveldb_minor_version())
}

// Build reports how the loaded LevelDB library was built, read from its
// file: the release build scripts/build-leveldb.sh installs says "release,
// built from source with -O2 -DNDEBUG", while Debian's libleveldb, which
// keeps LevelDB's assert checks, says "debug: assertions compiled in".
var Build = sync.OnceValue(func() string {
	return libinfo.Build(unsafe.Pointer(C.leveldb_open))
})

// libraryFile returns the path of the loaded LevelDB library.
func libraryFile() (string, error) {
	return libinfo.File(unsafe.Pointer(C.leveldb_open))
}
