package hyperleveldb

import (
	"testing"

	"github.com/tsbench/storage/engine/internal/librarytest"
)

// TestLibrary checks that the process runs the renamed release library
// scripts/build-hyperleveldb.sh installs. Its version is the LevelDB
// version HyperLevelDB is based on.
func TestLibrary(t *testing.T) {
	librarytest.Release(t, name, "1.0.2 (LevelDB 1.14)", "libhyperleveldb.so.1", libraryFile)
}
