package lmdb

import (
	"testing"

	"github.com/tsbench/storage/engine/internal/librarytest"
)

// TestLibrary checks that the process runs the release library
// scripts/build-lmdb.sh installs, not Debian's liblmdb.so.0. LMDB's own
// checks do not call assert(3), so only Build, which looks for them,
// tells whether they are compiled in.
func TestLibrary(t *testing.T) {
	librarytest.Release(t, "lmdb", "0.9.35", "liblmdb-tsbench.so.0", libraryFile)
}
