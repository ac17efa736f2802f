// Package librarytest checks, for the tests of a C backend built from
// source by its scripts/build-<engine>.sh, that the process runs the
// release library that script installs: not another build of the same
// version on the system, such as a distribution's, which may keep its
// assert checks.
package librarytest

import (
	"debug/elf"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/libinfo"
)

// Release checks that the engine registered as name reports version, that
// the library file it loaded, which file returns, has soname, the one its
// build script installs, was compiled with -O2 and without assert checks,
// and that engine.Build reports a release build.
func Release(t *testing.T, name, version, soname string, file func() (string, error)) {
	t.Helper()
	script := "scripts/build-" + name + ".sh"
	if got := engine.Version(name); got != version {
		t.Errorf("engine.Version(%q) = %q, want %s", name, got, version)
	}
	path, err := file()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sonames, err := f.DynString(elf.DT_SONAME)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(sonames) != 1 || sonames[0] != soname {
		t.Errorf("%s has soname %q, want %s from %s", path, sonames, soname, script)
	}
	in, err := libinfo.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if in.Asserts || in.Optimization() != "-O2" {
		t.Errorf("%s: asserts %v, optimization %q (flags %q); want a -O2 -DNDEBUG build from %s", path, in.Asserts, in.Optimization(), in.Flags, script)
	}
	b := engine.Build(name)
	t.Logf("%s: %s", path, b)
	if !strings.HasPrefix(b, "release") {
		t.Errorf("engine.Build(%q) = %q, want a release build", name, b)
	}
}
