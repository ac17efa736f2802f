package hyperleveldb

// #include <hyperleveldb/c.h>
import "C"

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Version reports HyperLevelDB's release, read from the name of the
// loaded library's file (scripts/build-hyperleveldb.sh installs
// libhyperleveldb.so.1.0.2), and the LevelDB version its C API reports:
// "1.0.2 (LevelDB 1.14)". HyperLevelDB has no version call of its own,
// and its C API's alone would name LevelDB's.
func Version() string {
	api := "LevelDB " + strconv.Itoa(int(C.hyperleveldb_major_version())) + "." + strconv.Itoa(int(C.hyperleveldb_minor_version()))
	if path, err := libraryFile(); err == nil {
		if file, err := filepath.EvalSymlinks(path); err == nil {
			if _, release, ok := strings.Cut(filepath.Base(file), ".so."); ok {
				return release + " (" + api + ")"
			}
		}
	}
	return "release unknown (" + api + ")"
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
