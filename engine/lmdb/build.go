package lmdb

import (
	"bytes"
	"debug/elf"
	"os"
	"sync"

	"github.com/tsbench/storage/engine/internal/modversion"
)

// assertFormat is the message of LMDB's mdb_assert_fail, which mdb.c
// compiles in only without NDEBUG.
var assertFormat = []byte("Assertion '%.200s' failed in %.40s()")

// Build reports how the LMDB code in this binary was built. lmdb-go
// compiles LMDB's source into the binary with -O2 and, like LMDB's own
// Makefile, without NDEBUG, so its mdb_assert checks stay on unless the
// build sets CGO_CFLAGS="-O2 -g -DNDEBUG" (the Makefile does). It is read
// from the executable: the assertion message is there only if the checks
// are.
var Build = sync.OnceValue(func() string {
	src := "lmdb-go " + modversion.Of("github.com/PowerDNS/lmdb-go", "v1.9.3") + "'s LMDB source"
	asserts, err := executableHas(assertFormat)
	switch {
	case err != nil:
		return "unknown: " + err.Error()
	case asserts:
		return "debug: mdb_assert checks compiled in, built from " + src + " with -O2 (set CGO_CFLAGS=\"-O2 -g -DNDEBUG\" for a release build)"
	default:
		return "release, built from " + src + " with -O2 -DNDEBUG"
	}
})

// executableHas reports whether the running executable's read-only data
// holds s.
func executableHas(s []byte) (bool, error) {
	exe, err := os.Executable()
	if err != nil {
		return false, err
	}
	f, err := elf.Open(exe)
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
	return bytes.Contains(data, s), nil
}
