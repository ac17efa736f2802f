package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Driver is what a backend registers: how to open it, how to make its
// engine-specific options for config files, and which library it runs.
type Driver struct {
	// Open opens or creates the engine in dir. opts has defaults filled in.
	Open func(dir string, opts Options) (Engine, error)
	// NewOptions returns a pointer to the backend's zero-valued options, the
	// target for its TOML table. Nil if the backend has no options of its own.
	NewOptions func() any
	// Version reports the version of the library behind the engine, alone
	// ("1.23", "v1.1.5"): reports show it after the engine's name.
	Version func() string
}

var (
	driversMu sync.RWMutex
	drivers   = map[string]Driver{}
)

// Register makes a backend available by name. It panics if the name is
// taken or the driver has no Open, like database/sql.Register.
func Register(name string, d Driver) {
	driversMu.Lock()
	defer driversMu.Unlock()
	if d.Open == nil {
		panic("engine: Register " + name + " without Open")
	}
	if _, dup := drivers[name]; dup {
		panic("engine: Register called twice for " + name)
	}
	drivers[name] = d
}

// Names returns the registered engine names, sorted.
func Names() []string {
	driversMu.RLock()
	defer driversMu.RUnlock()
	names := make([]string, 0, len(drivers))
	for n := range drivers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the driver registered under name.
func Lookup(name string) (Driver, error) {
	driversMu.RLock()
	d, ok := drivers[name]
	driversMu.RUnlock()
	if !ok {
		return Driver{}, fmt.Errorf("%w %q: choose one of %s", ErrUnknownEngine, name, strings.Join(Names(), ", "))
	}
	return d, nil
}

// Version reports the library version behind a registered engine, or ""
// if it does not say.
func Version(name string) string {
	d, err := Lookup(name)
	if err != nil || d.Version == nil {
		return ""
	}
	return d.Version()
}

// markerFile records in every engine directory which engine wrote it, so
// that opening it with another engine fails clearly instead of reading
// garbage or creating a second store beside the first.
const markerFile = "ENGINE"

// Open opens the engine registered as name in dir, creating dir if needed.
// A nil opts means all defaults.
func Open(name, dir string, opts *Options) (Engine, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	o, err := opts.WithDefaults()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("engine: open %s in %s: %w (choose a writable directory)", name, dir, err)
	}
	marker := filepath.Join(dir, markerFile)
	b, err := os.ReadFile(marker)
	fresh := errors.Is(err, fs.ErrNotExist)
	switch {
	case fresh:
	case err != nil:
		return nil, fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
	case strings.TrimSpace(string(b)) != name:
		owner := strings.TrimSpace(string(b))
		return nil, fmt.Errorf("%w: %s was written by %q, not %q; open it as %s or choose an empty directory", ErrWrongEngine, dir, owner, name, owner)
	}
	e, err := d.Open(dir, o)
	if err != nil {
		return nil, fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
	}
	// The marker is written only once the engine opened, so a failed first
	// open does not claim the directory.
	if fresh {
		if err := os.WriteFile(marker, []byte(name+"\n"), 0o644); err != nil {
			e.Close()
			return nil, fmt.Errorf("engine: open %s in %s: %w (choose a writable directory)", name, dir, err)
		}
	}
	return e, nil
}
