package micro

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/measure"
	"github.com/tsbench/storage/workload/harness"
)

// Opener opens the engine under test in dir, creating it if needed.
// syncWrites asks for engine.SyncBatch whatever the configured profile:
// fillsync's store.
type Opener func(dir string, syncWrites bool) (engine.Engine, error)

// OpenerFor opens the registered engine name with opts.
func OpenerFor(name string, opts engine.Options) Opener {
	return func(dir string, syncWrites bool) (engine.Engine, error) {
		o := opts
		if syncWrites {
			o.Sync = engine.SyncBatch
		}
		return engine.Open(name, dir, &o)
	}
}

// Session runs benchmarks one at a time on one engine, keeping track of
// what the store holds so that every read can be checked. Run uses one
// for a whole Config; a testing.B drives one directly with its own
// operation counts (see the repository's bench package). A Session is not
// safe for concurrent use.
type Session struct {
	open   Opener
	dir    string
	cfg    Config
	db     engine.Engine
	dbSync bool // db was opened with syncWrites
	pools  map[int]*values
	st     state
	runs   map[string]uint64 // runs of each benchmark so far, for seeds
	hist   *measure.Histogram
	// warnings says once per kind what this machine could not measure.
	warnings *harness.Warnings
	// prepared names the fill whose empty store Prepare already made.
	prepared string
}

// state is what the store holds: after a fill, entries [0, loaded) with
// values of valueSize bytes at generation gen, written in order; or
// nothing, if deleted.
type state struct {
	loaded    int64
	valueSize int
	gen       uint64
	order     permutation
	deleted   bool
	// removed counts entries a partial delete removed.
	removed int64
	// partial: an overwrite or delete touched only some entries, so the
	// contents are no longer tracked and reads cannot be checked.
	partial bool
}

// NewSession prepares to run benchmarks of cfg on the engine open opens
// in dir. dir must be empty or absent: the session deletes the store's
// files before every fill, and so must own all of them. The engine is
// opened when a benchmark first needs it.
func NewSession(open Opener, dir string, cfg Config) (*Session, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("%w: data directory %s: %v", ErrInvalidConfig, dir, err)
	case len(entries) > 0:
		return nil, fmt.Errorf("%w: data directory %s is not empty: give an empty or new directory, whose files the benchmarks may delete", ErrInvalidConfig, dir)
	}
	cfg = cfg.WithDefaults()
	return &Session{
		open:     open,
		dir:      dir,
		cfg:      cfg,
		pools:    map[int]*values{},
		runs:     map[string]uint64{},
		hist:     measure.NewHistogram(),
		warnings: &harness.Warnings{Log: cfg.Log, Prefix: "micro", Part: "benchmark"},
	}, nil
}

// Config returns the session's configuration, defaults filled in.
func (s *Session) Config() Config { return s.cfg }

// Close closes the engine, if open.
func (s *Session) Close() error { return s.closeDB() }

// Prepare puts the store, untimed, in the state the benchmark name is
// measured from, so that a caller timing Run times only the benchmark: an
// empty store for a fill; a freshly loaded one (Num entries of ValueSize
// bytes, by write) for overwrite and deleterandom, and for reads unless
// the store already holds exactly those.
func (s *Session) Prepare(name string) error {
	b := lookup(name)
	if b == nil {
		return unknown(name)
	}
	switch {
	case b.kind == kindFill:
		if err := s.fresh(b.sync); err != nil {
			return err
		}
		s.prepared = name
		return nil
	case b.kind == kindOverwrite || b.kind == kindDelete || !s.loaded():
		return s.load()
	}
	return s.ensureOpen()
}

// loaded reports whether the store holds what load writes: Num entries
// of ValueSize bytes, with known contents.
func (s *Session) loaded() bool {
	st := s.st
	return st.loaded == s.cfg.Num && st.valueSize == s.cfg.ValueSize && !st.deleted && !st.partial
}

func unknown(name string) error {
	return fmt.Errorf("%w: unknown benchmark %q", ErrInvalidConfig, name)
}

// ensureOpen opens the store for benchmarks other than fills.
func (s *Session) ensureOpen() error {
	if s.db != nil && !s.dbSync {
		return nil
	}
	if err := s.closeDB(); err != nil {
		return err
	}
	return s.openDB(false)
}

func (s *Session) openDB(syncWrites bool) error {
	db, err := s.open(s.dir, syncWrites)
	if err != nil {
		return err
	}
	s.db, s.dbSync = db, syncWrites
	return nil
}

func (s *Session) closeDB() error {
	if s.db == nil {
		return nil
	}
	err := s.db.Close()
	s.db = nil
	return err
}

// fresh replaces the store by an empty one. It deletes the files inside
// the session's directory, which NewSession made sure were all its own.
func (s *Session) fresh(syncWrites bool) error {
	s.st = state{}
	if err := s.closeDB(); err != nil {
		return fmt.Errorf("close before a new store: %w", err)
	}
	entries, err := os.ReadDir(s.dir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(s.dir, e.Name())); err != nil {
			return err
		}
	}
	return s.openDB(syncWrites)
}

// load fills a fresh store with Num entries as write does, untimed and
// unreported, then closes and reopens it as after any fill.
func (s *Session) load() error {
	if err := s.fresh(false); err != nil {
		return err
	}
	b := lookup(Write)
	run := &benchRun{hist: s.hist}
	s.hist.Reset()
	n := b.fillCount(s.cfg.Num)
	if err := s.fill(b, n)(run); err != nil {
		s.st = state{}
		return fmt.Errorf("loading the store: %w", err)
	}
	if err := s.closeDB(); err != nil {
		s.st = state{}
		return fmt.Errorf("loading the store: close: %w", err)
	}
	return s.openDB(false)
}

// values returns the value pool for one value size.
func (s *Session) values(size int) *values {
	v, ok := s.pools[size]
	if !ok {
		v = newValues(size, s.cfg.CompressionRatio, s.cfg.Seed)
		s.pools[size] = v
	}
	return v
}

// seed returns the seed of the next run of benchmark name: the same for
// every engine given the same Config, different from run to run.
func (s *Session) seed(name string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, name)
	s.runs[name]++
	return mix((s.cfg.Seed ^ h.Sum64()) + s.runs[name])
}
