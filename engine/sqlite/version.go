package sqlite

// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
	"github.com/tsbench/storage/engine/internal/modversion"
)

// Version reports the version of the SQLite library linked in, such as
// "3.54.1".
func Version() string { return C.GoString(C.sqlite3_libversion()) }

// Build reports how the SQLite code in the process was built, measured:
// whether SQLITE_DEBUG (assertions and internal checks) was compiled in,
// which SQLite says itself, where the code was loaded from, and the C
// flags the binary records. The amalgamation defines NDEBUG unless
// SQLITE_DEBUG is set, so "release" means assertions off.
var Build = sync.OnceValue(func() string {
	kind := "release (SQLITE_DEBUG off: NDEBUG)"
	if compileOption("DEBUG") {
		kind = "debug: SQLITE_DEBUG, assertions on"
	}
	file, err := libinfo.File(unsafe.Pointer(C.sqlite3_libversion))
	if err != nil {
		return kind + ", loaded from an unknown object: " + err.Error()
	}
	if !isExecutable(file) {
		// Built with go-sqlite3's libsqlite3 tag: a system library.
		return kind + ", " + file
	}
	s := kind + ", amalgamation compiled into the binary by go-sqlite3 " + modversion.Of("github.com/mattn/go-sqlite3", "v1.14.53")
	if flags, ok := cgoCFlags(); ok {
		s += " with " + flags
	}
	return s
})

// compileOption reports whether SQLite was compiled with SQLITE_<name>.
func compileOption(name string) bool {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	return C.sqlite3_compileoption_used(cname) != 0
}

// isExecutable reports whether path is the running program.
func isExecutable(path string) bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe == path
}

// cgoCFlags returns the CGO_CFLAGS the binary was built with, as its build
// information records them; empty means Go's default, -O2 -g.
func cgoCFlags() (string, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range bi.Settings {
		if s.Key == "CGO_CFLAGS" {
			if s.Value == "" {
				return "-O2 -g (Go's default CGO_CFLAGS)", true
			}
			return s.Value, true
		}
	}
	return "", false
}
