package kyotocabinet

// #cgo pkg-config: kyotocabinet
// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

func init() {
	engine.RegisterBackend("kyotocabinet", open, engine.Driver{
		Version:   Version,
		Build:     Build,
		Recognize: recognize,
	})
}

// fileName is the TreeDB file; its suffix makes Kyoto Cabinet open a file
// tree database. It writes data.kct.wal beside it during transactions.
const fileName = "data.kct"

// DB is a Kyoto Cabinet TreeDB file.
type DB struct {
	db *C.KCDB
	// hard: sync "batch", every commit fsynced.
	hard bool

	// rw makes writes atomic to readers: Kyoto Cabinet locks per record
	// operation and its transactions do not isolate, so a write (a batch
	// whole) holds rw for writing, and Get and NewIterator for reading.
	rw sync.RWMutex
	views
}

// Open opens or creates the database in dir, an existing directory, with
// opts, resolved first as engine.Open resolves them: the backend alone,
// without the directory lock and the contract's rules that
// engine.Open("kyotocabinet", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("kyotocabinet", dir, &opts)
}

// open is Open given o resolved, and the backend's own options in own.
func open(dir string, o engine.Options, own Options) (*DB, error) {
	compressor, err := fileCompressor(dir, own, o)
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, fileName)
	d := &DB{db: C.kcdbnew(), hard: o.Sync == engine.SyncBatch}
	// OTRYLOCK: another process's lock fails the open instead of waiting.
	mode := C.uint32_t(C.KCOWRITER | C.KCOCREATE | C.KCOTRYLOCK)
	if d.hard {
		// Every update its own transaction, fsynced at commit.
		mode |= C.KCOAUTOTRAN | C.KCOAUTOSYNC
	}
	cpath := C.CString(path + own.tuning(o, compressor))
	defer C.free(unsafe.Pointer(cpath))
	var st C.tsb_kc_status
	if C.tsb_kc_open(d.db, cpath, mode, &st) == 0 {
		C.kcdbdel(d.db)
		return nil, openError(path, st)
	}
	var logErr error
	if d.hard {
		logErr = d.createLog()
	}
	if err := errors.Join(logErr, syncRecovery(path), recordCompressor(dir, compressor)); err != nil {
		C.tsb_kc_close(d.db, &st)
		C.kcdbdel(d.db)
		return nil, err
	}
	return d, nil
}

// createLog makes Kyoto Cabinet create its transaction log now, by an
// empty hard transaction, so that syncRecovery's fsync of the directory
// makes the log's name durable before any batch. Kyoto Cabinet creates
// data.kct.wal at a session's first transaction and never syncs the
// directory, while a hard commit syncs the data file after each region it
// logs: a power cut in the middle of a commit left that commit's first
// writes durable in the data file and no log to undo them, and the batch
// acknowledged before it torn (strace of the power-loss check's writer).
func (d *DB) createLog() error {
	return d.update(true, func() error { return nil })
}

// syncRecovery makes what Kyoto Cabinet's open did to the data file at
// path durable: the data file, then its directory. An open after a crash
// in a transaction writes the log's undo records back into the data file
// and unlinks the log, syncing neither. If a power cut then kept the
// log's name but not the undo, the next open would apply that stale log
// again, over every transaction committed since, and cut the file back to
// its old length (the power-loss check lost every batch after its second
// cut). Synced in this order, a cut leaves either the log and the data it
// undoes, or neither.
func syncRecovery(path string) error {
	var errs []error
	for _, name := range []string{path, filepath.Dir(path)} {
		f, err := os.Open(name)
		if err == nil {
			err = errors.Join(f.Sync(), f.Close())
		}
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("kyotocabinet: syncing %s after open: %w", path, err)
	}
	return nil
}

// Get returns a copy of the value under key.
func (d *DB) Get(key []byte) ([]byte, error) {
	d.rw.RLock()
	defer d.rw.RUnlock()
	return d.get(key)
}

// get reads key's value; the caller holds rw.
func (d *DB) get(key []byte) ([]byte, error) {
	var st C.tsb_kc_status
	var n C.size_t
	v := C.tsb_kc_get(d.db, bytesPtr(key), C.size_t(len(key)), &n, &st)
	if v == nil {
		if st.code == C.KCENOREC {
			return nil, engine.ErrNotFound
		}
		return nil, statusError("get", st)
	}
	defer C.kcfree(unsafe.Pointer(v))
	if n == 0 {
		return []byte{}, nil
	}
	return C.GoBytes(unsafe.Pointer(v), C.int(n)), nil
}

// Put stores value under key.
func (d *DB) Put(key, value []byte) error {
	return d.update(false, func() error { return d.put(key, value) })
}

// Delete removes key.
func (d *DB) Delete(key []byte) error {
	return d.update(false, func() error { return d.del(key) })
}

// update runs fn holding rw for writing, in a transaction if tran (hard
// with sync "batch"), committed only if fn succeeds.
func (d *DB) update(tran bool, fn func() error) error {
	d.rw.Lock()
	defer d.rw.Unlock()
	if !tran {
		return fn()
	}
	var st C.tsb_kc_status
	if C.tsb_kc_begin(d.db, cBool(d.hard), &st) == 0 {
		return statusError("begin transaction", st)
	}
	err := fn()
	if C.tsb_kc_end(d.db, cBool(err == nil), &st) == 0 {
		err = errors.Join(err, statusError("end transaction", st))
	}
	return err
}

// put and del write one record, first keeping the value it replaces for
// open iterators; the caller holds rw for writing.
func (d *DB) put(key, value []byte) error {
	if err := d.preserve(key); err != nil {
		return err
	}
	var st C.tsb_kc_status
	if C.tsb_kc_set(d.db, bytesPtr(key), C.size_t(len(key)), bytesPtr(value), C.size_t(len(value)), &st) == 0 {
		return statusError("set", st)
	}
	return nil
}

func (d *DB) del(key []byte) error {
	if err := d.preserve(key); err != nil {
		return err
	}
	var st C.tsb_kc_status
	if C.tsb_kc_remove(d.db, bytesPtr(key), C.size_t(len(key)), &st) == 0 {
		return statusError("remove", st)
	}
	return nil
}

// deleteChunk caps the records one DeleteRange step removes while holding
// rw, so that a huge range does not keep readers out throughout.
const deleteChunk = 4096

// DeleteRange removes the keys in [start, end) with a cursor, in steps of
// at most deleteChunk records (each a transaction with sync "batch"); it
// is not atomic as a whole.
func (d *DB) DeleteRange(start, end []byte) error {
	if start != nil && end != nil && bytes.Compare(start, end) >= 0 {
		return nil
	}
	from := bytes.Clone(start)
	for {
		done := true
		err := d.update(d.hard, func() error {
			cur := C.kcdbcursor(d.db)
			defer C.kccurdel(cur)
			var st C.tsb_kc_status
			if C.tsb_kc_jump(cur, 0, bytesPtr(from), C.size_t(len(from)), &st) == 0 {
				if st.code == C.KCENOREC {
					return nil
				}
				return statusError("delete range", st)
			}
			var e C.tsb_kc_entry
			defer func() { C.kcfree(unsafe.Pointer(e.buf)) }()
			for n := 0; ; n++ {
				// Read without moving: the remove moves on.
				C.tsb_kc_fetch(cur, 0, e.buf, &e, &st)
				if e.buf == nil {
					if st.code == C.KCENOREC {
						return nil
					}
					return statusError("delete range", st)
				}
				k := unsafe.Slice((*byte)(unsafe.Pointer(e.key)), e.klen)
				if end != nil && bytes.Compare(k, end) >= 0 {
					return nil
				}
				if n == deleteChunk {
					from = append(from[:0], k...)
					done = false
					return nil
				}
				d.keep(k, unsafe.Slice((*byte)(unsafe.Pointer(e.val)), e.vlen), true)
				if C.tsb_kc_remove_at(cur, &st) == 0 {
					return statusError("delete range", st)
				}
			}
		})
		if err != nil || done {
			return err
		}
	}
}

// Compact defragments the file: it writes the page cache out, moves the
// records over the free space that deletes left, and truncates the file
// after the last one. It covers the whole file whatever the bounds.
func (d *DB) Compact(start, end []byte) error {
	var st C.tsb_kc_status
	if C.tsb_kc_defrag(d.db, &st) == 0 {
		return statusError("defrag", st)
	}
	return nil
}

var _ engine.Flusher = (*DB)(nil)

// Flush writes the page cache to the file and fsyncs it, which makes the
// writes of the "none" profile durable.
func (d *DB) Flush() error {
	var st C.tsb_kc_status
	if C.tsb_kc_sync(d.db, 1, &st) == 0 {
		return statusError("synchronize", st)
	}
	return nil
}

// Close writes the page cache to the file and closes it (with fsync only
// with sync "batch").
func (d *DB) Close() error {
	var st C.tsb_kc_status
	var err error
	if C.tsb_kc_close(d.db, &st) == 0 {
		err = statusError("close", st)
	}
	C.kcdbdel(d.db)
	return err
}

// statusError turns a failed call's status into an error; a file Kyoto
// Cabinet finds broken is engine.ErrCorrupt.
func statusError(op string, st C.tsb_kc_status) error {
	if st.code == C.KCEBROKEN {
		return fmt.Errorf("%w: %w: %s: %s", ErrLibrary, engine.ErrCorrupt, op, C.GoString(st.msg))
	}
	return fmt.Errorf("%w: %s: %s: %s", ErrLibrary, op, C.GoString(C.kcecodename(st.code)), C.GoString(st.msg))
}

// openError explains a failed open. Kyoto Cabinet reports a file that is
// not one of its databases, or whose header is damaged, as an invalid
// operation ("invalid magic data", "invalid meta data"), and another
// process's lock as a system error.
func openError(path string, st C.tsb_kc_status) error {
	msg := C.GoString(st.msg)
	switch {
	case st.code == C.KCEINVALID && strings.Contains(msg, "invalid"):
		return fmt.Errorf("%w: %w: open %s: %s", ErrLibrary, engine.ErrCorrupt, path, msg)
	case strings.Contains(msg, "lock"):
		return fmt.Errorf("%w: %w: open %s: %s", ErrLibrary, engine.ErrLocked, path, msg)
	}
	return statusError("open "+path, st)
}

// bytesPtr points C at b's bytes for the duration of a call.
func bytesPtr(b []byte) *C.char {
	if len(b) == 0 {
		return nil
	}
	return (*C.char)(unsafe.Pointer(&b[0]))
}

func cBool(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}
