package lmdb

// #cgo pkg-config: lmdb-tsbench
// #cgo CFLAGS: -I${SRCDIR}/../internal
// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/cbatch"
)

func init() {
	engine.RegisterBackend("lmdb", open, engine.Driver{
		Version: Version,
		Build:   Build,
		Release: installRelease,
		// LMDB stores keys of 1 to 511 bytes (MDB_MAXKEYSIZE, fixed when
		// it is compiled) and values below 4 GiB (its MAXDATASIZE, and
		// the batch encoding's limit), and Compact replaces the
		// environment open iterators read.
		Limits:    engine.Limits{MinKeySize: 1, MaxKeySize: maxKeySize, MaxValueSize: cbatch.MaxValueSize, ExclusiveCompact: true},
		Recognize: recognize,
	})
}

const (
	// dataFile is LMDB's data file inside the engine directory.
	dataFile = "data.mdb"
	// maxKeySize is LMDB's key size limit.
	maxKeySize = C.TSB_LMDB_MAXKEY
)

// DB is an LMDB environment holding one key-value store (the unnamed root
// database).
type DB struct {
	dir   string
	opts  Options
	flags C.uint

	// writeMu serializes write transactions, so that growing the map and
	// swapping the data file, which LMDB allows only while no write
	// transaction is active, can run in a writer's place.
	writeMu sync.Mutex
	// mapMu is held shared by every call that reads through the map (a
	// Get, an iterator fill) and exclusively, under writeMu, to remap or
	// replace env, which would leave such a read in unmapped memory.
	mapMu sync.RWMutex
	env   *C.MDB_env
	dbi   C.MDB_dbi
	// mapSize is the current map size; written under both locks.
	mapSize int64
	// mapGen counts remaps, so that iterators notice the map moved;
	// written under both locks.
	mapGen uint64
	// lost is set, under both locks, when Compact closed env and could
	// not open it again: it is Compact's error, which wraps
	// engine.ErrBroken. engine.Open's wrapper refuses every later call
	// but Close with it; a call that was already waiting for writeMu or
	// mapMu finds it there (lockWrites, readMap) instead of the closed env.
	lost error

	// idle holds reset read transactions for reuse (see readtxn.go).
	idleMu sync.Mutex
	idle   []*C.MDB_txn
}

var (
	_ engine.Backend = (*DB)(nil)
	_ engine.Flusher = (*DB)(nil)
)

// Open opens or creates an LMDB environment in dir, an existing directory,
// with opts, resolved first as engine.Open resolves them: the backend
// alone, without the directory lock and the contract's rules that
// engine.Open("lmdb", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("lmdb", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in o.
func open(dir string, opts engine.Options, o Options) (*DB, error) {
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
func envFlags(sync engine.SyncMode, o Options) C.uint {
	var f C.uint
	if o.NoReadahead {
		f |= C.MDB_NORDAHEAD
	}
	if o.WriteMap {
		f |= C.MDB_WRITEMAP
	}
	if sync == engine.SyncNone {
		if o.WriteMap {
			f |= C.MDB_MAPASYNC
		} else {
			f |= C.MDB_NOSYNC
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
	cdir := C.CString(db.dir)
	defer C.free(unsafe.Pointer(cdir))
	e := C.tsb_lmdb_open(cdir, db.flags, C.size_t(roundToPage(size)), C.uint(db.opts.MaxReaders))
	if e.rc != 0 {
		return wrap("open environment", e.rc)
	}
	if n := C.mdb_env_get_maxkeysize(e.env); n != maxKeySize {
		C.mdb_env_close(e.env)
		return fmt.Errorf("%w (it stores keys of up to %d bytes)", ErrWrongLibrary, n)
	}
	if os.IsNotExist(err) {
		// A store LMDB just created is synced once even under sync
		// "none" (MDB_NOSYNC): otherwise a power cut leaves its file's
		// name, which engine.Open makes durable, over no meta pages, an
		// empty file that no open accepts (the power-loss check).
		if rc := C.mdb_env_sync(e.env, 1); rc != 0 {
			C.mdb_env_close(e.env)
			return wrap("sync the new environment", rc)
		}
	}
	db.env, db.dbi, db.mapSize = e.env, e.dbi, int64(C.tsb_lmdb_mapsize(e.env))
	return nil
}

// roundToPage rounds n up to a multiple of the OS page size, as LMDB wants
// for a map size.
func roundToPage(n int64) int64 {
	p := int64(os.Getpagesize())
	return (n + p - 1) / p * p
}

func (db *DB) compactFile() string { return filepath.Join(db.dir, dataFile+".compact") }

// empty stands in for the data of an empty slice, so that C never sees a
// NULL key (memcmp with NULL is undefined even for zero bytes).
var empty C.char

// cbytes returns b's data and length for C. b must hold no Go pointers,
// which byte slices never do, so cgo lets C read it during the call.
func cbytes(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return &empty, 0
	}
	return (*C.char)(unsafe.Pointer(unsafe.SliceData(b))), C.size_t(len(b))
}

// Get returns a copy of the value stored under key.
func (db *DB) Get(key []byte) ([]byte, error) {
	k, kn := cbytes(key)
	for {
		if err := db.readMap(); err != nil {
			return nil, err
		}
		r := C.tsb_lmdb_get(db.env, db.takeIdle(), db.dbi, k, kn)
		if r.txn == nil {
			db.mapMu.RUnlock()
			if err := db.beginFailed("get", r.rc); err != nil {
				return nil, err
			}
			continue
		}
		var v []byte
		var err error
		switch r.rc {
		case 0:
			v = make([]byte, int(r.vlen))
			copy(v, unsafe.Slice((*byte)(unsafe.Pointer(r.val)), len(v)))
		case C.MDB_NOTFOUND, C.MDB_BAD_VALSIZE:
			// A key LMDB cannot store is not there either.
			err = engine.ErrNotFound
		default:
			err = wrap("get", r.rc)
		}
		db.endRead(r.txn)
		return v, err
	}
}

// Put stores value under key in its own write transaction.
func (db *DB) Put(key, value []byte) error {
	k, kn := cbytes(key)
	v, vn := cbytes(value)
	return db.update("put", func() C.int { return C.tsb_lmdb_put(db.env, db.dbi, k, kn, v, vn) })
}

// Delete removes key in its own write transaction.
func (db *DB) Delete(key []byte) error {
	k, kn := cbytes(key)
	return db.update("delete", func() C.int { return C.tsb_lmdb_delete(db.env, db.dbi, k, kn) })
}

// Flush forces every committed write to stable storage, whatever the sync
// profile.
func (db *DB) Flush() error {
	if err := db.readMap(); err != nil {
		return err
	}
	defer db.mapMu.RUnlock()
	return wrap("sync", C.mdb_env_sync(db.env, 1))
}

// readMap takes mapMu shared for a call that reads through the map, or
// returns lost if env was lost while the call waited for it.
func (db *DB) readMap() error {
	db.mapMu.RLock()
	return db.unlessLost(db.mapMu.RUnlock)
}

// lockWrites takes writeMu for a call that writes or remaps, or returns
// lost if env was lost while the call waited for it.
func (db *DB) lockWrites() error {
	db.writeMu.Lock()
	return db.unlessLost(db.writeMu.Unlock)
}

// unlessLost returns nil, or lost once unlock has released the lock just
// taken, if env was lost.
func (db *DB) unlessLost(unlock func()) error {
	if db.lost != nil {
		unlock()
		return db.lost
	}
	return nil
}

// Close flushes committed writes to stable storage and closes the
// environment, unless Compact lost it or Close closed it already (a test
// of the bare backend may close it twice).
func (db *DB) Close() error {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	db.mapMu.Lock()
	defer db.mapMu.Unlock()
	if db.lost != nil || db.env == nil {
		return nil
	}
	err := wrap("sync", C.mdb_env_sync(db.env, 1))
	db.dropIdle()
	C.mdb_env_close(db.env)
	db.env = nil
	return err
}
