package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
)

// Driver is what a backend registers: how to open it, how to make its
// engine-specific options for config files, which library it runs and
// which keys it cannot store.
type Driver struct {
	// Open opens or creates the engine in dir, an existing directory that
	// no other open engine uses. opts is resolved already (Resolved): the
	// shared defaults are filled in and, for a backend with NewOptions,
	// opts.Engine points to its own options complete, so the backend
	// applies no defaults of its own. Open wraps what it returns, so the
	// backend need not check for use after Close, count iterators, or
	// check keys against Limits.
	Open func(dir string, opts Options) (Backend, error)
	// OpenContext is Open honouring ctx's deadline and cancellation, for
	// a backend whose Open can wait on a network (etcd); OpenContext
	// (the package function) uses it. Nil: Open, after checking ctx.
	OpenContext func(ctx context.Context, dir string, opts Options) (Backend, error)
	// NewOptions returns a pointer to the backend's zero-valued options, the
	// target for its TOML table. Nil if the backend has no options of its own.
	NewOptions func() any
	// Version reports the version of the library behind the engine, alone
	// ("1.23", "v1.1.5"): reports show it after the engine's name.
	Version func() string
	// Build says how that library was built, measured from the loaded
	// library where it can be: "release, official rocksdbjni binary",
	// "release, built from source with -O2 -DNDEBUG", "Go module v2.1.7".
	// A benchmark reports it beside the version, since one version can be
	// a release or a debug build.
	Build func() string
	// Limits are the keys the engine cannot store and whether Compact
	// needs every iterator closed; Open enforces them. Zero means none. A
	// backend whose limits depend on its options returns them from a
	// method Limits() Limits instead.
	Limits Limits
	// Recognize reports whether dir, not empty and without the ENGINE
	// marker, holds a store of this engine, by files no other engine
	// writes; Open then adopts it and writes the marker. Without it, or
	// when it says no, Open refuses such a directory untouched
	// (ErrWrongEngine). Nil: no store is recognised.
	Recognize func(dir string) (bool, error)
	// OnlyByName says the engine runs only when named, never as part of
	// all (AllNames): for an engine that starts a cluster of JVM
	// processes, seconds and a GiB of memory each, which a run or a test
	// of every engine should not pay for unasked. Default false: all
	// includes it.
	OnlyByName bool
	// Process, for an engine that no Go program opens (the JVM stores,
	// which the JVM worker runs), returns the command of a process of its
	// own that runs it: the program's path and its arguments, to which the
	// caller adds those of its protocol (docs/protocol.md). Open then
	// fails with ErrOutOfProcess, and Open above may be nil. Its error
	// says in one line what is missing (a worker not built, no java).
	// Nil: Open opens the engine in this process.
	Process func() (path string, args []string, err error)
	// Group is the word that stands for the engine and the others of its
	// group in a list of engines ("jvm"), as "all" stands for AllNames:
	// an engine in a group runs when it or its group is named, never as
	// part of all. Default "": no group.
	Group string
	// Expiry says the backend honours Options.Expiry, dropping entries
	// by itself once they are that old; Open, Resolve and Resolved refuse
	// an Expiry for an engine without it (ErrNoExpiry). Default false.
	Expiry bool
	// Release installs release version of the engine's C library where
	// it is not yet, for a list of engines that names NAME@VERSION, and
	// returns where it is (Release) for a process of its own to load in
	// place of the one this program links. Its error says in one line
	// what is wrong: a release no registry serves (naming those that
	// are), a download whose checksum differs, a library lacking a
	// function the engine cannot do without. Nil: the engine has no
	// release but the one this program links.
	Release func(version string) (Release, error)
}

var (
	driversMu sync.RWMutex
	drivers   = map[string]Driver{}
)

// Register makes a backend available by name. It panics if the name is
// taken, or is a group's, or the driver has neither Open nor Process,
// like database/sql.Register.
func Register(name string, d Driver) {
	driversMu.Lock()
	defer driversMu.Unlock()
	if d.Open == nil && d.Process == nil {
		panic("engine: Register " + name + " without Open or Process")
	}
	for n, other := range drivers {
		if other.Group == name || n == d.Group {
			panic("engine: Register " + name + ": an engine and a group share a name")
		}
	}
	if _, dup := drivers[name]; dup {
		panic("engine: Register called twice for " + name)
	}
	drivers[name] = d
}

// RegisterBackend is Register for a backend package: open returns its own
// type B and takes its own options O, which Open resolves once with O's
// Resolve and hands over complete, so that open applies no defaults. It
// sets d's Open and NewOptions.
func RegisterBackend[O Resolver, B Backend](name string, open func(dir string, opts Options, own O) (B, error), d Driver) {
	withContext := ownOpen(name, func(_ context.Context, dir string, opts Options, own O) (B, error) { return open(dir, opts, own) })
	d.Open = func(dir string, opts Options) (Backend, error) { return withContext(context.Background(), dir, opts) }
	d.NewOptions = func() any { return new(O) }
	Register(name, d)
}

// RegisterBackendContext is RegisterBackend for a backend whose open
// honours ctx: it sets d's OpenContext too.
func RegisterBackendContext[O Resolver, B Backend](name string, open func(ctx context.Context, dir string, opts Options, own O) (B, error), d Driver) {
	d.OpenContext = ownOpen(name, open)
	RegisterBackend(name, func(dir string, opts Options, own O) (B, error) { return open(context.Background(), dir, opts, own) }, d)
}

// ownOpen is open in the form of Driver.OpenContext: it hands open the
// backend's own options, which opts holds resolved.
func ownOpen[O any, B Backend](name string, open func(context.Context, string, Options, O) (B, error)) func(context.Context, string, Options) (Backend, error) {
	return func(ctx context.Context, dir string, opts Options) (Backend, error) {
		own, err := OptionsFor[O](opts, name)
		if err != nil {
			return nil, err
		}
		b, err := open(ctx, dir, opts, *own)
		if err != nil {
			return nil, err // not a nil B in a non-nil Backend
		}
		return b, nil
	}
}

// Names returns the registered engine names, sorted, those that run in a
// process of their own (Driver.Process) too.
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

// AllNames returns the engines that "all" stands for, sorted: the
// registered ones (Names) but those registered OnlyByName or in a Group.
// A run or a test of every engine takes these.
func AllNames() []string {
	return namesWhere(func(d Driver) bool { return !d.OnlyByName && d.Group == "" })
}

// GroupNames returns the engines registered in group (Driver.Group),
// sorted; none for a word that is no group.
func GroupNames(group string) []string {
	return namesWhere(func(d Driver) bool { return group != "" && d.Group == group })
}

// Groups returns the words that stand for a group of engines
// (Driver.Group), sorted.
func Groups() []string {
	driversMu.RLock()
	defer driversMu.RUnlock()
	var groups []string
	for _, d := range drivers {
		if d.Group != "" && !slices.Contains(groups, d.Group) {
			groups = append(groups, d.Group)
		}
	}
	slices.Sort(groups)
	return groups
}

// namesWhere returns the registered engines whose driver keep accepts,
// sorted.
func namesWhere(keep func(Driver) bool) []string {
	driversMu.RLock()
	defer driversMu.RUnlock()
	var names []string
	for n, d := range drivers {
		if keep(d) {
			names = append(names, n)
		}
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

// lookup returns the driver registered as name, and opts with the
// defaults of the shared options filled in.
func lookup(name string, opts *Options) (Driver, Options, error) {
	d, err := Lookup(name)
	if err != nil {
		return d, Options{}, err
	}
	o, err := opts.WithDefaults()
	if err == nil {
		err = d.checkExpiry(name, o)
	}
	return d, o, err
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

// Build reports how the library behind a registered engine was built (see
// Driver.Build), or "" if it does not say.
func Build(name string) string {
	d, err := Lookup(name)
	if err != nil || d.Build == nil {
		return ""
	}
	return d.Build()
}

// OpenWith is Open with the engine's own options typed: own points to the
// options type of the backend registered as name (for example
// *rocksdb.Options), or is nil for its defaults, and shared holds the
// options every engine shares (nil for the defaults; its Engine field is
// replaced by own). Options.Engine is an any, so a wrong type passed
// there is found only when the backend opens; OpenWith checks own's type
// against the driver before anything is created, and fails with
// ErrInvalidOptions naming the type the engine takes.
func OpenWith[O any](name, dir string, shared *Options, own *O) (Engine, error) {
	d, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if d.NewOptions == nil {
		return nil, fmt.Errorf("%w: %s has no options of its own, so it takes no %T; use engine.Open", ErrInvalidOptions, name, own)
	}
	if want := d.NewOptions(); !isType[*O](want) {
		return nil, fmt.Errorf("%w: %s takes %T as its own options, not %T", ErrInvalidOptions, name, want, own)
	}
	var o Options
	if shared != nil {
		o = *shared
	}
	o.Engine = own
	return Open(name, dir, &o)
}

// isType reports whether v holds a T.
func isType[T any](v any) bool {
	_, ok := v.(T)
	return ok
}

// Open opens the engine registered as name in dir, creating dir if needed.
// A nil opts means all defaults. The engine it returns enforces the
// contract in this package's documentation whatever the backend: it
// refuses a directory open in another engine (ErrLocked) or written by
// another engine (ErrWrongEngine), resolves opts once (Resolved) and
// hands the backend the result, and keeps the rules on Close, iterators
// and keys.
func Open(name, dir string, opts *Options) (Engine, error) {
	return OpenContext(context.Background(), name, dir, opts)
}

// OpenContext is Open, giving up when ctx is done: with an error wrapping
// ctx.Err(), and nothing left open. A backend that can wait on a network
// (etcd) honours ctx while it opens (Driver.OpenContext); the others, whose
// Open cannot be interrupted, check ctx before they start.
func OpenContext(ctx context.Context, name, dir string, opts *Options) (Engine, error) {
	d, o, err := lookup(name, opts)
	if err != nil {
		return nil, err
	}
	// Resolved as resolve does, with an error in the backend's own
	// options named as one from its Open.
	if o.Engine, err = d.resolveOwn(name, o); err != nil {
		return nil, fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
	}
	if d.Open == nil {
		return nil, fmt.Errorf("engine: open %s in %s: %w", name, dir, ErrOutOfProcess) // before anything is made
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("engine: open %s in %s: %w (choose a writable directory)", name, dir, err)
	}
	if err := adopt(d, name, dir); err != nil {
		return nil, err
	}
	marker, fresh, err := claim(name, dir)
	if err != nil {
		return nil, err
	}
	e, err := d.open(ctx, dir, o)
	var newBatch func() BackendBatch
	switch {
	case err == nil && e == nil:
		err = errors.New("the driver returned no engine and no error")
	case err == nil:
		if newBatch = batchesOf(e); newBatch == nil {
			e.Close()
			err = fmt.Errorf("the driver's backend %T has no NewBatch", e)
		}
	}
	if err != nil {
		unclaim(marker, fresh)
		return nil, fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
	}
	if fresh {
		if err := mark(marker, name); err != nil {
			e.Close()
			unclaim(marker, fresh)
			return nil, fmt.Errorf("engine: open %s in %s: %w (choose a writable directory)", name, dir, err)
		}
	}
	lim := d.Limits
	if l, ok := e.(interface{ Limits() Limits }); ok {
		lim = l.Limits() // they depend on the backend's options
	}
	return wrap(&handle{be: e, newBatch: newBatch, name: name, opts: o, lim: lim, marker: marker}), nil
}

// open opens the backend in dir with opts, resolved: with OpenContext if
// it has one, or else with Open once ctx is checked, since Open cannot be
// interrupted. An engine that runs in a process of its own is refused.
func (d Driver) open(ctx context.Context, dir string, opts Options) (Backend, error) {
	if d.Open == nil {
		return nil, ErrOutOfProcess
	}
	if d.OpenContext != nil {
		return d.OpenContext(ctx, dir, opts)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return d.Open(dir, opts)
}

// OpenBackend opens the backend registered as name in dir as its own type
// B, without the wrapper Open returns: a backend package's Open, for
// tests and tools that need the backend's methods beyond Backend. opts
// (nil for the defaults) is resolved first, as Open resolves it; the rest
// of Open's contract (the ENGINE marker, the lock, the rules on Close)
// is not kept.
func OpenBackend[B Backend](name, dir string, opts *Options) (B, error) {
	return OpenBackendContext[B](context.Background(), name, dir, opts)
}

// OpenBackendContext is OpenBackend, giving up when ctx is done as
// OpenContext does.
func OpenBackendContext[B Backend](ctx context.Context, name, dir string, opts *Options) (B, error) {
	var none B
	d, o, err := resolve(name, opts)
	if err != nil {
		return none, err
	}
	be, err := d.open(ctx, dir, o)
	if err != nil {
		return none, err
	}
	if b, ok := be.(B); ok {
		return b, nil
	}
	if be != nil {
		be.Close()
	}
	return none, fmt.Errorf("engine: %s opened a %T, not a %T", name, be, none)
}
