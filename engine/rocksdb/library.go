package rocksdb

// #include "binding.h"
import "C"

import (
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Version reports the version of the linked RocksDB library, such as
// "11.8.1".
func Version() string { return C.GoString(C.tsb_rocksdb_version()) }

// Build reports how the loaded RocksDB library was built, read from the
// library file itself: "release, official rocksdbjni binary". The same
// version number can be a release build or a debug one with assertions
// and test sync points, and a benchmark must say which it measured.
var Build = sync.OnceValue(func() string {
	in, err := library()
	if err != nil {
		return "unknown: " + err.Error()
	}
	return in.Describe()
})

// library reads the build facts of the shared object rocksdb_open was
// loaded from.
func library() (libinfo.Info, error) {
	path, err := libinfo.File(unsafe.Pointer(C.rocksdb_open))
	if err != nil {
		return libinfo.Info{}, err
	}
	return libinfo.Read(path)
}
