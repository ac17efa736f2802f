package engine

import (
	"fmt"
	"os"
	"strings"
)

// Named is an engine as a list of engines names it: "rocksdb", or
// "rocksdb@10.0.1" for release 10.0.1 of its library in place of the one
// this program links.
type Named struct {
	// Engine is the registered name.
	Engine string
	// Release is the version after the @; "" for the linked library.
	Release string
}

// ParseName parses "NAME" or "NAME@VERSION", the one place such a name is
// read. NAME must be registered, and a VERSION needs a driver with
// Release. Its errors wrap ErrUnknownEngine or ErrRelease.
func ParseName(s string) (Named, error) {
	name, version, versioned := strings.Cut(s, "@")
	d, err := Lookup(name)
	if err != nil {
		return Named{}, err
	}
	switch {
	case !versioned:
	case d.Release == nil:
		return Named{}, fmt.Errorf("%w: %s: %s has no release but the one this program links (%s): name it without @%s", ErrRelease, s, name, orNone(Version(name)), version)
	case version == "":
		return Named{}, fmt.Errorf("%w: %s names no version: write %s@VERSION, or %s for the linked %s", ErrRelease, s, name, name, orNone(Version(name)))
	}
	return Named{Engine: name, Release: version}, nil
}

// String is n as a list of engines names it.
func (n Named) String() string {
	if n.Release == "" {
		return n.Engine
	}
	return n.Engine + "@" + n.Release
}

// Runs is the release n runs: its Release, or the version of the library
// this program links (Version). Two names that run the same release name
// one engine twice.
func (n Named) Runs() string {
	if n.Release == "" {
		return Version(n.Engine)
	}
	return n.Release
}

// Resolve installs n's release where it is not yet and returns it
// (Driver.Release); the zero Release for a name without one.
func (n Named) Resolve() (Release, error) {
	if n.Release == "" {
		return Release{}, nil
	}
	d, err := Lookup(n.Engine)
	if err != nil {
		return Release{}, err
	}
	r, err := d.Release(n.Release)
	if err != nil {
		return Release{}, fmt.Errorf("%w: %s: %w", ErrRelease, n, err)
	}
	r.Engine = n.Engine
	return r, nil
}

// Release is one release of an engine's C library installed apart from
// the one this program links (Driver.Release).
type Release struct {
	// Engine is the registered engine it is a release of; Named.Resolve
	// sets it.
	Engine string
	// Version is the version its library reports, which a run checks
	// it loaded: "10.0.1". It can differ from the name: RocksDB's Java
	// binding 10.10.1.1 is a patch of the binding alone, whose library
	// is RocksDB 10.10.1.
	Version string
	// Dir is the directory that holds its library under the file name
	// this program links (librocksdb.so.11): a process with Dir first on
	// LD_LIBRARY_PATH loads this release.
	Dir string
	// Build says how its library was built, read from the file as
	// Driver.Build reads the linked one's.
	Build string
	// Lacks says which functions this program calls the release's
	// library does not export, which the engine does without, and what
	// goes missing for it, in one line; "" when it lacks none. A release
	// lacking one the engine cannot do without is refused by
	// Driver.Release instead.
	Lacks string
}

// Env is what a process that loads r adds to the environment it inherits:
// Dir first on LD_LIBRARY_PATH, before any directories already there;
// nothing for the zero Release.
func (r Release) Env() []string {
	if r.Dir == "" {
		return nil
	}
	path := r.Dir
	if old := os.Getenv("LD_LIBRARY_PATH"); old != "" {
		path += ":" + old
	}
	return []string{"LD_LIBRARY_PATH=" + path}
}

// orNone is v, or "none" when empty.
func orNone(v string) string {
	if v == "" {
		return "none"
	}
	return v
}
