// Package libinfo tells how a C or C++ library loaded into this process was
// built, read from the library's own file rather than assumed: the same
// version number can be a release build or a debug build with assertions
// and test hooks, and a benchmark must say which one it measured.
package libinfo

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>

static const char *tsb_libinfo_file(void *fn) {
	Dl_info info;
	if (dladdr(fn, &info) == 0 || info.dli_fname == NULL) return NULL;
	return info.dli_fname;
}
*/
import "C"

import (
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unsafe"
)

// File returns the path of the loaded object that holds the C function fn,
// for example File(unsafe.Pointer(C.rocksdb_open)). A function linked
// statically into the executable yields the executable's path.
func File(fn unsafe.Pointer) (string, error) {
	p := C.tsb_libinfo_file(fn)
	if p == nil {
		return "", errors.New("libinfo: no loaded object holds that address")
	}
	path := C.GoString(p)
	if !strings.Contains(path, "/") {
		// dladdr names the main program as it was started.
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("libinfo: %w", err)
		}
		path = exe
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	return path, nil
}

// Info is what an ELF file says of its own build.
type Info struct {
	// Path is the file read.
	Path string
	// SyncPoints: it defines rocksdb::SyncPoint::Process, which only
	// RocksDB's debug builds contain (test hooks on every write path).
	SyncPoints bool
	// Asserts: it calls __assert_fail, so some assert() checks are compiled
	// in (none are where every part was built with -DNDEBUG).
	Asserts bool
	// JNI: it exports Java_* functions, as the library inside a Java
	// binding's release jar (RocksDB's official rocksdbjni) does.
	JNI bool
	// Flags are the compiler options recorded in .GCC.command.line by
	// -frecord-gcc-switches (GCC leaves out preprocessor options such as
	// -DNDEBUG); empty when the build did not record them.
	Flags []string
}

// Read reads the build facts of the ELF file at path.
func Read(path string) (Info, error) {
	f, err := elf.Open(path)
	if err != nil {
		return Info{}, fmt.Errorf("libinfo: %w", err)
	}
	defer f.Close()
	in := Info{Path: path}
	syms, err := f.DynamicSymbols()
	if err != nil && !errors.Is(err, elf.ErrNoSymbols) {
		return Info{}, fmt.Errorf("libinfo: %s: %w", path, err)
	}
	for _, s := range syms {
		switch {
		case s.Name == "__assert_fail":
			in.Asserts = true
		case strings.HasPrefix(s.Name, "_ZN7rocksdb9SyncPoint7Process"):
			in.SyncPoints = s.Section != elf.SHN_UNDEF
		case strings.HasPrefix(s.Name, "Java_") && s.Section != elf.SHN_UNDEF:
			in.JNI = true
		}
	}
	if sec := f.Section(".GCC.command.line"); sec != nil {
		data, err := sec.Data()
		if err != nil {
			return Info{}, fmt.Errorf("libinfo: %s: %w", path, err)
		}
		seen := map[string]bool{}
		for _, line := range bytes.Split(data, []byte{0}) {
			for _, flag := range strings.Fields(string(line)) {
				// The line starts with the compiler's name and version.
				if strings.HasPrefix(flag, "-") && !seen[flag] {
					seen[flag] = true
					in.Flags = append(in.Flags, flag)
				}
			}
		}
	}
	return in, nil
}

// Optimization returns the last -O flag recorded, or "".
func (in Info) Optimization() string {
	opt := ""
	for _, f := range in.Flags {
		if strings.HasPrefix(f, "-O") {
			opt = f
		}
	}
	return opt
}

// Release reports whether the file is a release build: no RocksDB sync
// points and no assertion compiled in, or an official Java binding's
// library (whose few assertion calls come from bundled compression code).
// GCC does not record -D options, so NDEBUG shows only by its effect: a
// library whose code uses assert() calls no __assert_fail.
func (in Info) Release() bool {
	return !in.SyncPoints && (!in.Asserts || in.JNI)
}

// Describe sums the facts up for a report: "release, built from source
// with -O2 -DNDEBUG", "release, official rocksdbjni binary", "debug: sync
// points and assertions compiled in", ...
func (in Info) Describe() string {
	opt := in.Optimization()
	switch {
	case in.SyncPoints:
		return "debug: sync points and assertions compiled in"
	case in.Asserts && !in.JNI:
		return strings.TrimSpace("debug: assertions compiled in " + opt)
	case len(in.Flags) > 0:
		return strings.TrimSpace("release, built from source with " + opt + " -DNDEBUG")
	case in.JNI:
		return "release, official rocksdbjni binary"
	default:
		return "release: no assertions compiled in, build flags not recorded"
	}
}

// Build describes the build of the loaded library holding the C function
// fn (File, Read, Describe), or says why it cannot: what a backend's
// engine.Driver.Build reports.
func Build(fn unsafe.Pointer) string {
	path, err := File(fn)
	if err != nil {
		return "unknown: " + err.Error()
	}
	in, err := Read(path)
	if err != nil {
		return "unknown: " + err.Error()
	}
	return in.Describe()
}
