package kyotocabinet

// #include "binding.h"
import "C"

import (
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Version reports the version of the linked Kyoto Cabinet library, such
// as "1.2.79".
func Version() string { return C.GoString(C.KCVERSION) }

// Build reports how the loaded Kyoto Cabinet library was built, read from
// its file. Its configure script builds with -O2 -DNDEBUG unless given
// --enable-debug or --enable-devel, which also define _KCDEBUG and so call
// assert(); Debian's libkyotocabinet imports no __assert_fail, so it
// reports "release: no assertions", then the library's path.
var Build = sync.OnceValue(func() string {
	path, err := libinfo.File(unsafe.Pointer(C.kcdbopen))
	if err != nil {
		return "unknown: " + err.Error()
	}
	in, err := libinfo.Read(path)
	if err != nil {
		return "unknown: " + err.Error()
	}
	return in.Describe() + ", " + path
})
