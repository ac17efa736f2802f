package leveldb

import (
	"testing"

	"github.com/tsbench/storage/engine/internal/librarytest"
)

// TestLibrary checks that the process runs the release library
// scripts/build-leveldb.sh installs, not another LevelDB on the system
// (Debian's libleveldb.so.1d keeps its assert checks).
func TestLibrary(t *testing.T) {
	librarytest.Release(t, "leveldb", "1.23", "libleveldb.so.1", libraryFile)
}
