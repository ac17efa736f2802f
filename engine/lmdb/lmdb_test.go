package lmdb_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/engine/lmdb"
)

func TestEngine(t *testing.T) { enginetest.RunEngine(t, "lmdb", nil) }

func TestConfig(t *testing.T) { enginetest.Config(t, "lmdb") }

// TestBuildMatchesCompileFlags checks that Build reads from the binary
// what the build did: a release build exactly when CGO_CFLAGS defined
// NDEBUG for this test binary (make test does).
func TestBuildMatchesCompileFlags(t *testing.T) {
	release := strings.Contains(os.Getenv("CGO_CFLAGS"), "-DNDEBUG")
	got := lmdb.Build()
	t.Logf("Build() = %q", got)
	if strings.HasPrefix(got, "release") != release {
		t.Errorf("Build() = %q with CGO_CFLAGS=%q", got, os.Getenv("CGO_CFLAGS"))
	}
}
