package lmdb

// #include "binding.h"
import "C"

import (
	"bytes"
	"debug/elf"
	"fmt"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Version reports the version of the loaded LMDB library, such as
// "0.9.35".
func Version() string {
	var major, minor, patch C.int
	C.mdb_version(&major, &minor, &patch)
	return fmt.Sprintf("%d.%d.%d", major, minor, patch)
}

// Build reports how the loaded LMDB library was built, read from its
// file: the release build scripts/build-lmdb.sh installs says "release,
// built from source with -O2 -DNDEBUG", one with LMDB's checks on says
// "debug: assertions compiled in".
var Build = sync.OnceValue(func() string {
	path, err := libraryFile()
	if err != nil {
		return "unknown: " + err.Error()
	}
	return describe(path)
})

// describe is Build for the library file at path.
func describe(path string) string {
	in, err := libinfo.Read(path)
	if err != nil {
		return "unknown: " + err.Error()
	}
	asserts, err := hasAsserts(path)
	if err != nil {
		return "unknown: " + err.Error()
	}
	in.Asserts = in.Asserts || asserts
	return in.Describe()
}

// libraryFile returns the path of the loaded LMDB library.
func libraryFile() (string, error) {
	return libinfo.File(unsafe.Pointer(C.mdb_version))
}

// assertFormat is the message of LMDB's mdb_assert_fail, which mdb.c
// compiles in only without NDEBUG. LMDB's checks call it, not assert(3),
// so libinfo, which looks for __assert_fail, does not see them.
var assertFormat = []byte("Assertion '%.200s' failed in %.40s()")

// hasAsserts reports whether the read-only data of the ELF file at path
// holds assertFormat.
func hasAsserts(path string) (bool, error) {
	f, err := elf.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	sec := f.Section(".rodata")
	if sec == nil {
		return false, nil
	}
	data, err := sec.Data()
	if err != nil {
		return false, err
	}
	return bytes.Contains(data, assertFormat), nil
}
