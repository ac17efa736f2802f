package rocksdb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/libinfo"
	"github.com/tsbench/storage/engine/internal/release"
)

// installer installs a release of the library, by the version of its
// rocksdbjni jar, under build/rocksdb/VERSION.
var installer = release.Installer{Script: "scripts/install-rocksdb.sh", Dir: "rocksdb", Prefix: "rocksdb_"}

// listener are the functions of the event listener that Metrics counts
// flush and compaction bytes with (events.c): RocksDB 10.0 to 10.2 lack
// them, and run without those metrics.
var listener = []string{
	"rocksdb_compactionjobinfo_elapsed_micros", "rocksdb_compactionjobinfo_total_output_bytes",
	"rocksdb_eventlistener_create", "rocksdb_flushjobinfo_file_path", "rocksdb_options_add_eventlistener",
}

// installRelease is the driver's Release: it installs RocksDB version and
// refuses it if its library lacks a function this program calls other
// than the event listener's.
func installRelease(version string) (engine.Release, error) {
	linked, err := library()
	if err != nil {
		return engine.Release{}, err
	}
	r, lacks, err := installer.Install(version, linked.Path, describe)
	if err != nil {
		return r, err
	}
	r.Version = libraryVersion(version)
	if cannot := slices.DeleteFunc(slices.Clone(lacks), func(f string) bool { return slices.Contains(listener, f) }); len(cannot) > 0 {
		return r, fmt.Errorf("its library lacks %s, which engine/rocksdb calls: choose a later release", strings.Join(cannot, ", "))
	}
	if len(lacks) > 0 {
		r.Lacks = fmt.Sprintf("its library lacks %s (the event listener, which 10.4.2 and later have): it runs without the compaction bytes and time metrics", strings.Join(lacks, ", "))
	}
	return r, nil
}

// describe is Build for the library file at path.
func describe(path string) string {
	in, err := libinfo.Read(path)
	if err != nil {
		return "unknown: " + err.Error()
	}
	return in.Describe()
}

// libraryVersion is the version of RocksDB that release version of its
// Java binding carries, as its library reports it: a fourth number is a
// patch of the binding alone (10.10.1.1 carries 10.10.1).
func libraryVersion(version string) string {
	if parts := strings.Split(version, "."); len(parts) > 3 {
		return strings.Join(parts[:3], ".")
	}
	return version
}
