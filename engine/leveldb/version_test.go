package leveldb_test

import (
	"debug/elf"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/libinfo"
	"github.com/tsbench/storage/engine/leveldb"
)

// TestLibrary checks that the process runs the release library
// scripts/build-leveldb.sh installs, not another LevelDB on the system
// (Debian's libleveldb.so.1d keeps its assert checks).
func TestLibrary(t *testing.T) {
	if got := leveldb.Version(); got != "1.23" {
		t.Errorf("Version() = %q, want 1.23", got)
	}
	path, err := leveldb.LibraryFile()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	soname, err := f.DynString(elf.DT_SONAME)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(soname) != 1 || soname[0] != "libleveldb.so.1" {
		t.Errorf("%s has soname %q, want libleveldb.so.1 from scripts/build-leveldb.sh", path, soname)
	}
	in, err := libinfo.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Asserts || in.Optimization() != "-O2" {
		t.Errorf("%s: asserts %v, optimization %q (flags %q); want a -O2 -DNDEBUG build", path, in.Asserts, in.Optimization(), in.Flags)
	}
	if got := engine.Build("leveldb"); !strings.HasPrefix(got, "release") {
		t.Errorf(`engine.Build("leveldb") = %q, want a release build`, got)
	}
}
