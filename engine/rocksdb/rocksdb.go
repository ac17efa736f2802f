package rocksdb

// #cgo LDFLAGS: -lrocksdb
// #include "binding.h"
import "C"

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/linxGnu/grocksdb"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
)

func init() {
	engine.Register("rocksdb", engine.Driver{
		Open:       func(dir string, o engine.Options) (engine.Engine, error) { return Open(dir, o) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
	})
}

// Version reports the version of the linked RocksDB library, such as
// "7.8.3".
func Version() string { return C.GoString(C.tsb_rocksdb_version()) }

// DB is a RocksDB database opened through grocksdb.
type DB struct {
	guard guard.Guard
	db    *grocksdb.DB
	s     *settings
}

var (
	_ engine.Engine       = (*DB)(nil)
	_ engine.Flusher      = (*DB)(nil)
	_ engine.Backgrounder = (*DB)(nil)
)

// Open opens or creates a RocksDB database in dir. Most callers use
// engine.Open("rocksdb", dir, opts), which fills in defaults first.
func Open(dir string, o engine.Options) (*DB, error) {
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
	s, err := newSettings(o)
	if err != nil {
		return nil, err
	}
	db, err := grocksdb.OpenDb(s.opts, dir)
	if err != nil {
		s.free()
		if strings.Contains(err.Error(), "lock") {
			return nil, fmt.Errorf("%w (%v)", ErrLocked, err)
		}
		return nil, libraryError(err)
	}
	return &DB{db: db, s: s}, nil
}

// Get returns a copy of the value under key.
func (d *DB) Get(key []byte) ([]byte, error) {
	if err := d.guard.Enter(); err != nil {
		return nil, err
	}
	defer d.guard.Exit()
	v, err := d.db.GetBytes(d.s.ro, key)
	if err != nil {
		return nil, libraryError(err)
	}
	if v == nil {
		return nil, engine.ErrNotFound
	}
	return v, nil
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	return libraryError(d.db.Put(d.s.wo, key, value))
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	return libraryError(d.db.Delete(d.s.wo, key))
}

// DeleteRange removes the keys in [start, end) with one range tombstone,
// atomically. RocksDB needs an end key, so an unbounded end becomes the
// key just after the last key present: keys written after DeleteRange
// began beyond that point survive.
func (d *DB) DeleteRange(start, end []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	if end == nil {
		last, ok, err := d.lastKey(start)
		if err != nil || !ok {
			return err
		}
		end = append(last, 0)
	}
	if bytes.Compare(start, end) >= 0 {
		return nil
	}
	wb := grocksdb.NewWriteBatch()
	defer wb.Destroy()
	wb.DeleteRange(start, end)
	return libraryError(d.db.Write(d.s.wo, wb))
}

// lastKey returns a copy of the largest key >= start, if any.
func (d *DB) lastKey(start []byte) ([]byte, bool, error) {
	ro := grocksdb.NewDefaultReadOptions()
	defer ro.Destroy()
	ro.SetFillCache(false)
	it := d.db.NewIterator(ro)
	defer it.Close()
	it.SeekToLast()
	if !it.Valid() {
		return nil, false, libraryError(it.Err())
	}
	k := it.Key()
	defer k.Free()
	if bytes.Compare(k.Data(), start) < 0 {
		return nil, false, nil
	}
	return bytes.Clone(k.Data()), true, nil
}

// Compact flushes the memtables, then compacts [start, end) through every
// level, the last one included, so that deleted entries, point and range
// tombstones leave the disk.
func (d *DB) Compact(start, end []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	if err := d.flush(); err != nil {
		return err
	}
	co := grocksdb.NewCompactRangeOptions()
	defer co.Destroy()
	co.SetBottommostLevelCompaction(grocksdb.KForceOptimized)
	// grocksdb passes an empty bound as none; an empty start is the
	// smallest key anyway, and an empty end was handled above.
	d.db.CompactRangeOpt(grocksdb.Range{Start: start, Limit: end}, co)
	return nil
}

// Flush writes the memtables to table files and waits for it.
func (d *DB) Flush() error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	return d.flush()
}

func (d *DB) flush() error {
	fo := grocksdb.NewDefaultFlushOptions()
	defer fo.Destroy()
	fo.SetWait(true)
	return libraryError(d.db.Flush(fo))
}

// busyProperties are the RocksDB integer properties that are non-zero
// while a flush or compaction runs or is due.
var busyProperties = []string{
	"rocksdb.mem-table-flush-pending",
	"rocksdb.compaction-pending",
	"rocksdb.num-running-flushes",
	"rocksdb.num-running-compactions",
}

// Busy reports whether a flush or compaction is running or pending.
func (d *DB) Busy() (bool, error) {
	if err := d.guard.Enter(); err != nil {
		return false, err
	}
	defer d.guard.Exit()
	for _, p := range busyProperties {
		v, ok := d.db.GetIntProperty(p)
		if !ok {
			return false, fmt.Errorf("%w: property %s unavailable", ErrLibrary, p)
		}
		if v > 0 {
			return true, nil
		}
	}
	return false, nil
}

// Close closes the database. Writes acknowledged before it are in the
// write-ahead log and are replayed by the next Open.
func (d *DB) Close() error {
	return d.guard.Close(func() error {
		d.db.Close()
		d.s.free()
		return nil
	})
}

// libraryError wraps an error from RocksDB in ErrLibrary.
func libraryError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %v", ErrLibrary, err)
}
