package lmdb

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/defaults"
)

func init() {
	engine.Register("lmdb", engine.Driver{
		Open:       func(dir string, opts engine.Options) (engine.Engine, error) { return Open(dir, opts) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
		Build:      Build,
		// LMDB stores keys of 1 to 511 bytes (MDB_MAXKEYSIZE, fixed when
		// it is compiled), and Compact replaces the environment open
		// iterators read.
		Limits:    engine.Limits{MinKeySize: 1, MaxKeySize: maxKeySize, ExclusiveCompact: true},
		Recognize: recognize,
	})
}

// Version reports the version of the LMDB C library compiled in, such as
// "0.9.33".
func Version() string {
	major, minor, patch, _ := mdb.Version()
	return fmt.Sprintf("%d.%d.%d", major, minor, patch)
}

const (
	// dataFile is LMDB's data file inside the engine directory.
	dataFile = "data.mdb"
	// maxKeySize is LMDB's key size limit as lmdb-go compiles it.
	maxKeySize = 511
)

// DB is an LMDB environment holding one key-value store (the unnamed root
// database).
type DB struct {
	dir   string
	opts  Options
	flags uint

	// writeMu serializes write transactions, so that growing the map and
	// swapping the data file, which LMDB allows only while no write
	// transaction is active, can run in a writer's place.
	writeMu sync.Mutex
	// mapMu is held shared by every call that reads through the map (a
	// Get, an iterator move) and exclusively, under writeMu, to remap or
	// replace env, which would leave such a read in unmapped memory.
	mapMu sync.RWMutex
	env   *mdb.Env
	dbi   mdb.DBI
	// mapSize is the current map size; written under both locks.
	mapSize int64
	// mapGen counts remaps, so that iterators notice the map moved;
	// written under both locks.
	mapGen uint64
	// broken is set, under both locks, when Compact could not reopen env;
	// it wraps engine.ErrBroken.
	broken error

	// idle holds reset read transactions for reuse (see readtxn.go).
	idleMu sync.Mutex
	idle   []*mdb.Txn
}

var _ engine.Flusher = (*DB)(nil)

// Open opens or creates an LMDB environment in dir, an existing directory,
// with opts, whose defaults are filled in (engine.Open does that).
func Open(dir string, opts engine.Options) (*DB, error) {
	o, err := defaults.Own[Options](opts, "lmdb")
	if err != nil {
		return nil, err
	}
	db := &DB{dir: dir, opts: o, flags: envFlags(opts.Sync, o)}
	// A compaction interrupted before its rename leaves a partial copy;
	// the data file itself is intact.
	if err := os.Remove(db.compactFile()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("lmdb: remove leftover compaction file: %w", err)
	}
	if err := db.openEnv(); err != nil {
		return nil, err
	}
	return db, nil
}

// envFlags maps the sync profile and options to environment flags; the
// package documentation says what each combination guarantees.
func envFlags(sync engine.SyncMode, o Options) uint {
	var f uint
	if o.NoReadahead {
		f |= mdb.NoReadahead
	}
	if o.WriteMap {
		f |= mdb.WriteMap
	}
	if sync == engine.SyncNone {
		if o.WriteMap {
			f |= mdb.MapAsync
		} else {
			f |= mdb.NoSync
		}
	}
	return f
}

// openEnv opens the environment in db.dir with a map at least as large as
// the data file, so that reopening a grown database does not start with a
// full map. Callers hold both locks or own db exclusively.
func (db *DB) openEnv() error {
	size := db.opts.MapSize
	fi, err := os.Stat(filepath.Join(db.dir, dataFile))
	switch {
	case err == nil && fi.Size() == 0:
		// LMDB writes its meta pages when it creates the file, and would
		// take an empty one for a new store: a store lost its data.
		return fmt.Errorf("%w: lmdb: %s is empty", engine.ErrCorrupt, fi.Name())
	case err == nil && fi.Size() > size:
		size = fi.Size()
	}
	if err == nil {
		if err := checkLength(filepath.Join(db.dir, dataFile), fi.Size()); err != nil {
			return err
		}
	}
	env, err := mdb.NewEnv()
	if err != nil {
		return wrap("create environment", err)
	}
	dbi, err := setupEnv(env, db.dir, db.flags, size, db.opts.MaxReaders)
	if err != nil {
		env.Close()
		return err
	}
	info, err := env.Info()
	if err != nil {
		env.Close()
		return wrap("read environment info", err)
	}
	db.env, db.dbi, db.mapSize = env, dbi, info.MapSize
	if err := db.extendFile(); err != nil {
		env.Close()
		return err
	}
	return nil
}

func setupEnv(env *mdb.Env, dir string, flags uint, mapSize int64, maxReaders int) (mdb.DBI, error) {
	if err := env.SetMapSize(roundToPage(mapSize)); err != nil {
		return 0, wrap("set map size", err)
	}
	if err := env.SetMaxReaders(maxReaders); err != nil {
		return 0, wrap("set max readers", err)
	}
	// lmdb-go always adds MDB_NOTLS, so a read transaction is not tied to
	// an OS thread and an iterator may move between goroutines.
	if err := env.Open(dir, flags, 0o644); err != nil {
		return 0, wrap("open environment", err)
	}
	var dbi mdb.DBI
	err := env.Update(func(txn *mdb.Txn) (err error) {
		dbi, err = txn.OpenRoot(0)
		return err
	})
	return dbi, wrap("open root database", err)
}

// roundToPage rounds n up to a multiple of the OS page size, as LMDB wants
// for a map size.
func roundToPage(n int64) int64 {
	p := int64(os.Getpagesize())
	return (n + p - 1) / p * p
}

func (db *DB) compactFile() string { return filepath.Join(db.dir, dataFile+".compact") }

// Get returns a copy of the value stored under key.
func (db *DB) Get(key []byte) ([]byte, error) {
	txn, err := db.beginRead()
	if err != nil {
		return nil, err
	}
	defer db.endRead(txn)
	v, err := txn.Get(db.dbi, key)
	if mdb.IsNotFound(err) || mdb.IsErrno(err, mdb.BadValSize) {
		// A key LMDB cannot store is not there either.
		return nil, engine.ErrNotFound
	}
	if err != nil {
		return nil, wrap("get", err)
	}
	return append(make([]byte, 0, len(v)), v...), nil
}

// Put stores value under key in its own write transaction.
func (db *DB) Put(key, value []byte) error {
	return db.update("put", func(txn *mdb.Txn) error {
		return txn.Put(db.dbi, key, value, 0)
	})
}

// Delete removes key in its own write transaction.
func (db *DB) Delete(key []byte) error {
	return db.update("delete", func(txn *mdb.Txn) error {
		return del(txn, db.dbi, key)
	})
}

// del deletes key, absent or not; a key LMDB cannot store is absent.
func del(txn *mdb.Txn, dbi mdb.DBI, key []byte) error {
	if err := txn.Del(dbi, key, nil); err != nil && !mdb.IsNotFound(err) && !mdb.IsErrno(err, mdb.BadValSize) {
		return err
	}
	return nil
}

// Flush forces every committed write to stable storage, whatever the sync
// profile.
func (db *DB) Flush() error {
	db.mapMu.RLock()
	defer db.mapMu.RUnlock()
	if db.broken != nil {
		return db.broken
	}
	return wrap("sync", db.env.Sync(true))
}

// Close flushes committed writes to stable storage and closes the
// environment.
func (db *DB) Close() error {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	db.mapMu.Lock()
	defer db.mapMu.Unlock()
	if db.broken != nil {
		return nil
	}
	err := wrap("sync", db.env.Sync(true))
	db.dropIdle()
	db.env.Close()
	db.env = nil
	db.broken = engine.ErrClosed
	return err
}
