package lmdb_test

import (
	"debug/elf"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/libinfo"
	"github.com/tsbench/storage/engine/lmdb"
)

// TestLibrary checks that the process runs the release library
// scripts/build-lmdb.sh installs, not Debian's liblmdb.so.0.
func TestLibrary(t *testing.T) {
	if got := lmdb.Version(); got != "0.9.33" {
		t.Errorf("Version() = %q, want 0.9.33", got)
	}
	path, err := lmdb.LibraryFile()
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
	if len(soname) != 1 || soname[0] != "liblmdb-tsbench.so.0" {
		t.Errorf("%s has soname %q, want liblmdb-tsbench.so.0 from scripts/build-lmdb.sh", path, soname)
	}
	in, err := libinfo.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Optimization() != "-O2" {
		t.Errorf("%s: optimization %q (flags %q), want -O2", path, in.Optimization(), in.Flags)
	}
	got := engine.Build("lmdb")
	t.Logf("%s: %s", path, got)
	if !strings.HasPrefix(got, "release") {
		t.Errorf(`engine.Build("lmdb") = %q, want a release build`, got)
	}
}
