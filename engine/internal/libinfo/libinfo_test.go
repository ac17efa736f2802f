package libinfo_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/libinfo"
)

// build compiles src into a shared library with gcc and the given flags.
func build(t *testing.T, src string, flags ...string) string {
	t.Helper()
	dir := t.TempDir()
	c := filepath.Join(dir, "lib.c")
	if err := os.WriteFile(c, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	so := filepath.Join(dir, "lib.so")
	args := append([]string{"-shared", "-fPIC", "-o", so, c}, flags...)
	if out, err := exec.Command("gcc", args...).CombinedOutput(); err != nil {
		t.Fatalf("gcc %v: %v\n%s", args, err, out)
	}
	return so
}

const withAssert = `#include <assert.h>
int f(int x) { assert(x > 0); return x * 2; }
`

func TestReadRecordedRelease(t *testing.T) {
	in, err := libinfo.Read(build(t, withAssert, "-O2", "-DNDEBUG", "-frecord-gcc-switches"))
	if err != nil {
		t.Fatal(err)
	}
	if in.Asserts || in.SyncPoints || in.JNI {
		t.Errorf("Read = %+v, want no asserts, sync points or JNI", in)
	}
	if !in.Release() || in.Optimization() != "-O2" || len(in.Flags) == 0 {
		t.Errorf("Release() = %v, Optimization() = %q; want true, -O2 (flags %v)", in.Release(), in.Optimization(), in.Flags)
	}
	if got, want := in.Describe(), "release, built from source with -O2 -DNDEBUG"; got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
}

func TestReadRecordedDebug(t *testing.T) {
	in, err := libinfo.Read(build(t, withAssert, "-O1", "-frecord-gcc-switches"))
	if err != nil {
		t.Fatal(err)
	}
	if !in.Asserts || in.Release() {
		t.Errorf("Read = %+v, Release() = %v; want asserts, not release", in, in.Release())
	}
	if d := in.Describe(); d != "debug: assertions compiled in -O1" {
		t.Errorf("Describe() = %q, want a debug build", d)
	}
}

func TestReadUnrecorded(t *testing.T) {
	debug, err := libinfo.Read(build(t, withAssert, "-O2"))
	if err != nil {
		t.Fatal(err)
	}
	release, err := libinfo.Read(build(t, withAssert, "-O2", "-DNDEBUG"))
	if err != nil {
		t.Fatal(err)
	}
	if len(debug.Flags) != 0 || !debug.Asserts || debug.Release() {
		t.Errorf("without recorded flags, with asserts: %+v, Release() = %v", debug, debug.Release())
	}
	if release.Asserts || !release.Release() {
		t.Errorf("without recorded flags, -DNDEBUG: %+v, Release() = %v", release, release.Release())
	}
}

func TestReadSyncPointsAndJNI(t *testing.T) {
	rocks, err := libinfo.Read(build(t, `
void _ZN7rocksdb9SyncPoint7ProcessERKNS_5SliceEPv(void) {}
void Java_org_rocksdb_RocksDB_open(void) {}
`, "-O2", "-DNDEBUG"))
	if err != nil {
		t.Fatal(err)
	}
	if !rocks.SyncPoints || !rocks.JNI || rocks.Release() {
		t.Errorf("Read = %+v, Release() = %v; want sync points, JNI, not release", rocks, rocks.Release())
	}
	jni, err := libinfo.Read(build(t, withAssert+"void Java_org_rocksdb_RocksDB_open(void) {}\n", "-O2"))
	if err != nil {
		t.Fatal(err)
	}
	if !jni.Release() || jni.Describe() != "release, official rocksdbjni binary" {
		t.Errorf("JNI library: Release() = %v, Describe() = %q", jni.Release(), jni.Describe())
	}
}

func TestReadNotELF(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.so")
	os.WriteFile(p, []byte("not elf"), 0o644)
	if _, err := libinfo.Read(p); err == nil {
		t.Error("Read of a non-ELF file succeeded")
	}
}

func TestFileOfGoFunctionIsExecutable(t *testing.T) {
	got, err := libinfo.File(unsafe.Pointer(reflect.ValueOf(TestFileOfGoFunctionIsExecutable).Pointer()))
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if want, _ := filepath.EvalSymlinks(exe); got != want {
		t.Errorf("File(a Go function) = %q, want the test executable %q", got, want)
	}
}
