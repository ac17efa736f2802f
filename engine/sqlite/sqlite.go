package sqlite

// #include "binding.h"
import "C"

import (
	"bytes"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"

	// SQLite itself: go-sqlite3 compiles the amalgamation into the binary,
	// and binding.c calls it directly.
	_ "github.com/mattn/go-sqlite3"

	"github.com/tsbench/storage/engine"
)

func init() {
	engine.RegisterBackend("sqlite", open, engine.Driver{
		Version:   Version,
		Build:     Build,
		Recognize: recognize,
		// The write-ahead log can be truncated only once no snapshot
		// reads it. No blob is longer than SQLITE_MAX_LENGTH, 10^9 bytes
		// as go-sqlite3 compiles SQLite; nor is a row, so a key and a
		// value just under it together are refused by SQLite itself.
		Limits: engine.Limits{ExclusiveCompact: true, MaxValueSize: 1_000_000_000},
	})
}

// fileName is the database file in the engine directory; SQLite keeps its
// write-ahead log and index beside it (data.sqlite-wal, data.sqlite-shm).
const fileName = "data.sqlite"

// DB is a SQLite database holding one key-value table.
type DB struct {
	path string
	// readerPragmas configure each read connection.
	readerPragmas []string
	journalMode   string
	// shared: iterators and Gets use read connections of their own (WAL,
	// normal locking). Otherwise the writer connection serves every call.
	shared bool

	// wmu serializes the writer connection w; without shared it
	// serializes every call on the engine, iterator moves included.
	wmu sync.Mutex
	w   *conn

	// readers are the idle read connections: a Get takes one for the call,
	// an iterator for its life.
	rmu     sync.Mutex
	readers []*conn

	// iters counts open iterators, which block writes without shared.
	iters atomic.Int64
}

// Open opens or creates the database in dir, an existing directory, with
// opts, resolved first as engine.Open resolves them: the backend alone,
// without the directory lock and the contract's rules that
// engine.Open("sqlite", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("sqlite", dir, &opts)
}

// open is Open given o resolved, and the backend's own options in own.
func open(dir string, o engine.Options, own Options) (*DB, error) {
	d := &DB{
		path:          filepath.Join(dir, fileName),
		readerPragmas: []string{cachePragma(o)},
		journalMode:   own.JournalMode,
		shared:        own.shared(),
	}
	w, err := openConn(d.path, own.pragmas(o))
	if err != nil {
		return nil, err
	}
	if err := w.setup(own.JournalMode); err != nil {
		return nil, errors.Join(err, w.close())
	}
	d.w = w
	return d, nil
}

// reader returns an idle read connection, opening one if none is idle.
func (d *DB) reader() (*conn, error) {
	d.rmu.Lock()
	if n := len(d.readers); n > 0 {
		c := d.readers[n-1]
		d.readers = d.readers[:n-1]
		d.rmu.Unlock()
		return c, nil
	}
	d.rmu.Unlock()
	c, err := openConn(d.path, d.readerPragmas)
	if err == nil {
		err = c.setup(d.journalMode)
	}
	if err != nil {
		if c != nil {
			c.close()
		}
		return nil, err
	}
	return c, nil
}

// release returns a read connection to the idle list.
func (d *DB) release(c *conn) {
	d.rmu.Lock()
	d.readers = append(d.readers, c)
	d.rmu.Unlock()
}

// Get returns a copy of the value under key.
func (d *DB) Get(key []byte) ([]byte, error) {
	if !d.shared {
		d.wmu.Lock()
		defer d.wmu.Unlock()
		return d.w.read(key)
	}
	c, err := d.reader()
	if err != nil {
		return nil, err
	}
	defer d.release(c)
	return c.read(key)
}

// write runs fn on the writer connection. Without shared connections an
// open iterator reads through the writer's connection, where a write
// would show through its snapshot, so the write is refused.
func (d *DB) write(fn func(c *conn) error) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	if !d.shared && d.iters.Load() > 0 {
		return ErrIteratorOpen
	}
	return fn(d.w)
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	return d.write(func(c *conn) error { return put(c, key, value) })
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	return d.write(func(c *conn) error { return del(c, key) })
}

func put(c *conn, key, value []byte) error { return c.exec(c.put, nonNil(key), nonNil(value)) }

func del(c *conn, key []byte) error { return c.exec(c.del, nonNil(key), nil) }

// nonNil makes a nil key or value the empty one, which C binds as an
// empty blob rather than as no parameter.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// DeleteRange removes the keys in [start, end) with one DELETE, atomically.
func (d *DB) DeleteRange(start, end []byte) error {
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	return d.write(func(c *conn) error { return c.deleteRange(start, end) })
}

// Compact rebuilds the database file with VACUUM, which leaves out the
// free pages deletes left, then checkpoints the write-ahead log into it
// and truncates the log. It covers the whole file whatever the bounds.
// engine.Open runs it only while no iterator is open (Limits), since the
// log cannot be truncated under their snapshots.
func (d *DB) Compact(start, end []byte) error {
	d.wmu.Lock()
	defer d.wmu.Unlock()
	if err := d.w.execSQL("VACUUM"); err != nil {
		return err
	}
	if d.journalMode != "wal" {
		return nil
	}
	if rc := C.sqlite3_wal_checkpoint_v2(d.w.db, nil, C.TSB_SQLITE_CHECKPOINT_TRUNCATE, nil, nil); rc != C.TSB_SQLITE_OK {
		return d.w.error(rc)
	}
	return nil
}

// Close closes every connection. With sync "none", SQLite's last
// checkpoint writes the log into the database file without fsync.
func (d *DB) Close() error {
	// No call is in flight and no iterator open (engine.Open's rules):
	// every read connection is idle.
	var errs []error
	for _, c := range d.readers {
		errs = append(errs, c.close())
	}
	d.readers = nil
	errs = append(errs, d.w.close())
	return errors.Join(errs...)
}
