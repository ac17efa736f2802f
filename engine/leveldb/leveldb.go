package leveldb

// #cgo LDFLAGS: -lleveldb
// #include "binding.h"
import "C"

import (
	"bytes"
	"fmt"
	"strings"
	"sync/atomic"
	"unsafe"

	"github.com/jmhodges/levigo"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/guard"
	"github.com/tsbench/storage/engine/internal/rangedel"
)

func init() {
	engine.Register("leveldb", engine.Driver{
		Open:       func(dir string, o engine.Options) (engine.Engine, error) { return Open(dir, o) },
		NewOptions: func() any { return new(Options) },
		Version:    Version,
	})
}

// Version reports the version of the linked LevelDB library, such as "1.23".
func Version() string {
	return fmt.Sprintf("%d.%d", C.leveldb_major_version(), C.leveldb_minor_version())
}

// DB is a LevelDB database opened through levigo.
type DB struct {
	guard guard.Guard
	db    *levigo.DB
	s     *settings
	// putsInMemtable is set by writes that store values and cleared when
	// the memtable is written out; see DeleteRange.
	putsInMemtable atomic.Bool
}

var (
	_ engine.Engine  = (*DB)(nil)
	_ engine.Flusher = (*DB)(nil)
)

// Open opens or creates a LevelDB database in dir. Most callers use
// engine.Open("leveldb", dir, opts), which fills in defaults first.
func Open(dir string, o engine.Options) (*DB, error) {
	o, err := o.WithDefaults()
	if err != nil {
		return nil, err
	}
	s, err := newSettings(o)
	if err != nil {
		return nil, err
	}
	db, err := levigo.Open(dir, s.opts)
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
	v, err := d.db.Get(d.s.ro, key)
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
	d.putsInMemtable.Store(true)
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

// DeleteRange removes the keys in [start, end). LevelDB has no range
// delete, so it scans the range and deletes it in batches.
//
// If the memtable may hold puts, it is written out first, so that the
// tombstones never share a table with the entries they delete. LevelDB's
// CompactRange never rewrites the deepest level holding tables, and it
// writes a memtable that overlaps nothing straight to level 2: deleting
// data still in the memtable would otherwise leave a table there whose
// deleted entries no Compact removes.
func (d *DB) DeleteRange(start, end []byte) error {
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	if d.putsInMemtable.Load() {
		if err := d.Flush(); err != nil {
			return err
		}
	}
	return rangedel.ByScan(d, start, end)
}

// Compact compacts [start, end) down the levels, after writing the
// memtable out, so deleted entries and their tombstones leave the disk.
func (d *DB) Compact(start, end []byte) error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	if end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	// levigo passes an empty bound as none; an empty start is the smallest
	// key anyway, and an empty end was handled above.
	d.db.CompactRange(levigo.Range{Start: start, Limit: end})
	return nil
}

// Flush writes the memtable to a table file. LevelDB's log already holds
// every write, so this moves work rather than adding durability.
func (d *DB) Flush() error {
	if err := d.guard.Enter(); err != nil {
		return err
	}
	defer d.guard.Exit()
	d.putsInMemtable.Store(false)
	C.tsb_leveldb_flush_memtable(cdb(d.db))
	return nil
}

// Close closes the database. Writes acknowledged before it are in the log
// and are replayed by the next Open.
func (d *DB) Close() error {
	return d.guard.Close(func() error {
		d.db.Close()
		d.s.free()
		return nil
	})
}

// cdb converts levigo's handle to this package's C type.
func cdb(db *levigo.DB) *C.leveldb_t { return (*C.leveldb_t)(unsafe.Pointer(db.Ldb)) }

// setMaxFileSize sets an option levigo does not wrap.
func setMaxFileSize(o *levigo.Options, n int64) {
	C.leveldb_options_set_max_file_size((*C.leveldb_options_t)(unsafe.Pointer(o.Opt)), C.size_t(n))
}

// libraryError wraps an error from LevelDB in ErrLibrary.
func libraryError(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%w: %v", ErrLibrary, err)
}

// cError wraps and frees an error string LevelDB allocated; nil is no error.
func cError(s *C.char) error {
	if s == nil {
		return nil
	}
	defer C.leveldb_free(unsafe.Pointer(s))
	return fmt.Errorf("%w: %s", ErrLibrary, C.GoString(s))
}
