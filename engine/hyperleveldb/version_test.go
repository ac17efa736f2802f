package hyperleveldb_test

import (
	"debug/elf"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/hyperleveldb"
	"github.com/tsbench/storage/engine/internal/libinfo"
)

// TestLibrary checks that the process runs the renamed release library
// scripts/build-hyperleveldb.sh installs.
func TestLibrary(t *testing.T) {
	path, err := hyperleveldb.LibraryFile()
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
	if len(soname) != 1 || soname[0] != "libhyperleveldb.so.1" {
		t.Errorf("%s has soname %q, want libhyperleveldb.so.1 from scripts/build-hyperleveldb.sh", path, soname)
	}
	in, err := libinfo.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Asserts || in.Optimization() != "-O2" {
		t.Errorf("%s: asserts %v, optimization %q (flags %q); want a -O2 -DNDEBUG build", path, in.Asserts, in.Optimization(), in.Flags)
	}
	if got := engine.Build("hyperleveldb"); !strings.HasPrefix(got, "release") {
		t.Errorf(`engine.Build("hyperleveldb") = %q, want a release build`, got)
	}
}
