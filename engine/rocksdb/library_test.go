package rocksdb

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestVersion checks that the linked library is a current RocksDB, not
// Debian's 7.8.
func TestVersion(t *testing.T) {
	v := Version()
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n < 10 {
		t.Errorf("Version() = %q, want RocksDB 10 or newer; run scripts/install-rocksdb.sh", v)
	}
}

// TestReleaseLibrary checks the file the running code was loaded from: the
// official release library installed by scripts/install-rocksdb.sh, not a
// debug build and not Debian's package, which the linker could pick up
// instead when pkg-config's -L is lost.
func TestReleaseLibrary(t *testing.T) {
	in, err := library()
	if err != nil {
		t.Fatal(err)
	}
	if in.SyncPoints {
		t.Errorf("%s defines rocksdb::SyncPoint::Process: a debug build", in.Path)
	}
	if !in.JNI {
		t.Errorf("%s exports no Java_* functions: not the official rocksdbjni release library", in.Path)
	}
	for _, dir := range []string{"/usr/lib", "/lib"} {
		if strings.HasPrefix(in.Path, dir+"/") {
			t.Errorf("loaded %s, under %s where Debian installs its librocksdb", in.Path, dir)
		}
	}
	if want := "librocksdb.so." + Version(); filepath.Base(in.Path) != want {
		t.Errorf("loaded %s, want a file named %s", in.Path, want)
	}
}

// TestBuild checks what reports show as RocksDB's build.
func TestBuild(t *testing.T) {
	if b := Build(); !strings.HasPrefix(b, "release") {
		t.Errorf("Build() = %q, want a release build", b)
	}
}
