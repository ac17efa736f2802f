package sqlite

// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// busyTimeout is how long, in milliseconds, a connection waits for a lock
// another one holds (a checkpoint waiting for a reader, another process)
// before it fails with SQLITE_BUSY.
const busyTimeout = 10_000

// Statements every connection prepares once and reuses.
const (
	sqlPut        = "INSERT OR REPLACE INTO kv(k, v) VALUES(?1, ?2)"
	sqlGet        = "SELECT v FROM kv WHERE k = ?1"
	sqlDelete     = "DELETE FROM kv WHERE k = ?1"
	sqlDeleteFrom = "DELETE FROM kv WHERE k >= ?1"
	sqlDeleteSpan = "DELETE FROM kv WHERE k >= ?1 AND k < ?2"
	sqlBegin      = "BEGIN IMMEDIATE"
	sqlBeginRead  = "BEGIN"
	sqlCommit     = "COMMIT"
	sqlRollback   = "ROLLBACK"
	sqlSnapshot   = "SELECT 1 FROM kv LIMIT 1"
)

// schema is the one table: keys as the primary key of a WITHOUT ROWID
// table are the B-tree's own keys, so an entry is stored once.
const schema = "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID"

// conn is one SQLite connection with its prepared statements. It is used
// by one goroutine at a time.
type conn struct {
	db                                 *C.sqlite3
	put, get, del, delFrom, delSpan    *C.sqlite3_stmt
	begin, beginRead, commit, rollback *C.sqlite3_stmt
	snapshot                           *C.sqlite3_stmt
	// idle holds cursors of closed iterators, statements prepared.
	idle []*C.tsb_sqlite_cursor
}

// openConn opens path and applies the pragmas.
func openConn(path string, pragmas []string) (*conn, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	c := &conn{}
	rc := C.sqlite3_open_v2(cpath, &c.db, C.TSB_SQLITE_OPEN_READWRITE|C.TSB_SQLITE_OPEN_CREATE|C.TSB_SQLITE_OPEN_NOMUTEX, nil)
	if rc != C.TSB_SQLITE_OK {
		err := c.error(rc)
		c.close()
		return nil, err
	}
	C.sqlite3_busy_timeout(c.db, busyTimeout)
	for _, p := range pragmas {
		if err := c.execSQL(p); err != nil {
			c.close()
			return nil, err
		}
	}
	return c, nil
}

// setup creates the table if needed, checks the journal mode and
// prepares the statements.
func (c *conn) setup(journalMode string) error {
	if err := c.execSQL(schema); err != nil {
		return err
	}
	// SQLite keeps the old journal mode, without an error, when it cannot
	// switch; say so instead of running in a mode nobody asked for.
	mode, err := c.text("PRAGMA journal_mode")
	if err != nil {
		return err
	}
	if !strings.EqualFold(mode, journalMode) {
		return fmt.Errorf("%w: journal_mode is %q, not %q: another connection holds the database", ErrLibrary, mode, journalMode)
	}
	for _, s := range []struct {
		stmt **C.sqlite3_stmt
		sql  string
	}{
		{&c.put, sqlPut}, {&c.get, sqlGet}, {&c.del, sqlDelete},
		{&c.delFrom, sqlDeleteFrom}, {&c.delSpan, sqlDeleteSpan},
		{&c.begin, sqlBegin}, {&c.beginRead, sqlBeginRead}, {&c.commit, sqlCommit}, {&c.rollback, sqlRollback},
		{&c.snapshot, sqlSnapshot},
	} {
		if err := c.prepare(s.sql, s.stmt); err != nil {
			return err
		}
	}
	return nil
}

func (c *conn) prepare(sql string, stmt **C.sqlite3_stmt) error {
	csql := C.CString(sql)
	defer C.free(unsafe.Pointer(csql))
	if rc := C.tsb_sqlite_prepare(c.db, csql, stmt); rc != C.TSB_SQLITE_OK {
		return c.error(rc)
	}
	return nil
}

// execSQL runs SQL text once, ignoring any rows.
func (c *conn) execSQL(sql string) error {
	csql := C.CString(sql)
	defer C.free(unsafe.Pointer(csql))
	var msg *C.char
	if rc := C.sqlite3_exec(c.db, csql, nil, nil, &msg); rc != C.TSB_SQLITE_OK {
		defer C.sqlite3_free(unsafe.Pointer(msg))
		return libraryError(rc, fmt.Sprintf("%s: %s", sql, C.GoString(msg)))
	}
	return nil
}

// text runs a query and returns the first column of its first row.
func (c *conn) text(sql string) (string, error) {
	var stmt *C.sqlite3_stmt
	if err := c.prepare(sql, &stmt); err != nil {
		return "", err
	}
	defer C.sqlite3_finalize(stmt)
	switch rc := C.sqlite3_step(stmt); rc {
	case C.TSB_SQLITE_ROW:
		return C.GoString((*C.char)(unsafe.Pointer(C.sqlite3_column_text(stmt, 0)))), nil
	case C.TSB_SQLITE_DONE:
		return "", nil
	default:
		return "", c.error(rc)
	}
}

// exec runs a prepared statement with up to two blob parameters (nil
// binds nothing).
func (c *conn) exec(stmt *C.sqlite3_stmt, a, b []byte) error {
	ap, alen, hasa := blob(a)
	bp, blen, hasb := blob(b)
	if rc := C.tsb_sqlite_exec(stmt, ap, alen, hasa, bp, blen, hasb); rc != C.TSB_SQLITE_DONE {
		return c.error(rc)
	}
	return nil
}

// read returns a copy of the value under key, or engine.ErrNotFound.
func (c *conn) read(key []byte) ([]byte, error) {
	kp, klen, _ := blob(key)
	var val unsafe.Pointer
	var vlen C.size_t
	rc := C.tsb_sqlite_get(c.get, kp, klen, &val, &vlen)
	defer C.tsb_sqlite_get_done(c.get)
	switch rc {
	case C.TSB_SQLITE_ROW:
		if vlen == 0 {
			return []byte{}, nil
		}
		return C.GoBytes(val, C.int(vlen)), nil
	case C.TSB_SQLITE_DONE:
		return nil, engine.ErrNotFound
	default:
		return nil, c.error(rc)
	}
}

// update runs fn in one write transaction, committed only if fn succeeds.
func (c *conn) update(fn func(*conn) error) error {
	if err := c.exec(c.begin, nil, nil); err != nil {
		return err
	}
	if err := fn(c); err != nil {
		return errors.Join(err, c.exec(c.rollback, nil, nil))
	}
	if err := c.exec(c.commit, nil, nil); err != nil {
		return errors.Join(err, c.exec(c.rollback, nil, nil))
	}
	return nil
}

// deleteRange deletes [start, end) in one statement; nil start is the
// smallest key, nil end none.
func (c *conn) deleteRange(start, end []byte) error {
	if start == nil {
		start = []byte{}
	}
	if end == nil {
		return c.exec(c.delFrom, start, nil)
	}
	return c.exec(c.delSpan, start, end)
}

// cursor returns an idle cursor or a new one.
func (c *conn) cursor() (*C.tsb_sqlite_cursor, error) {
	if n := len(c.idle); n > 0 {
		cur := c.idle[n-1]
		c.idle = c.idle[:n-1]
		return cur, nil
	}
	cur := C.tsb_sqlite_cursor_new(c.db)
	if cur == nil {
		return nil, libraryError(C.TSB_SQLITE_NOMEM, "new iterator")
	}
	return cur, nil
}

// close finalizes every statement and closes the connection.
func (c *conn) close() error {
	for _, cur := range c.idle {
		C.tsb_sqlite_cursor_free(cur)
	}
	c.idle = nil
	for _, s := range []**C.sqlite3_stmt{&c.put, &c.get, &c.del, &c.delFrom, &c.delSpan, &c.begin, &c.beginRead, &c.commit, &c.rollback, &c.snapshot} {
		C.sqlite3_finalize(*s)
		*s = nil
	}
	if c.db == nil {
		return nil
	}
	rc := C.sqlite3_close_v2(c.db)
	c.db = nil
	if rc != C.TSB_SQLITE_OK {
		return libraryError(rc, "close")
	}
	return nil
}

// error turns a result code into an error carrying SQLite's message.
func (c *conn) error(rc C.int) error {
	msg := C.GoString(C.sqlite3_errstr(rc))
	if c.db != nil {
		msg = C.GoString(C.sqlite3_errmsg(c.db))
	}
	return libraryError(rc, msg)
}

// libraryError wraps SQLite's message in ErrLibrary and, for the failures
// every engine names alike, in the engine package's error too.
func libraryError(rc C.int, msg string) error {
	var common error
	switch rc & 0xff { // the primary code of an extended one
	case C.TSB_SQLITE_BUSY, C.TSB_SQLITE_LOCKED:
		common = engine.ErrLocked
	case C.TSB_SQLITE_TOOBIG:
		common = engine.ErrTooLarge
	case C.TSB_SQLITE_FULL:
		common = engine.ErrNoSpace
	case C.TSB_SQLITE_CORRUPT, C.TSB_SQLITE_NOTADB:
		common = engine.ErrCorrupt
	default:
		return fmt.Errorf("%w: %s", ErrLibrary, msg)
	}
	return fmt.Errorf("%w: %w: %s", ErrLibrary, common, msg)
}

// blob passes b to C for the duration of a call: a nil slice is no
// parameter, an empty one the empty blob.
func blob(b []byte) (unsafe.Pointer, C.size_t, C.int) {
	if b == nil {
		return nil, 0, 0
	}
	if len(b) == 0 {
		return nil, 0, 1
	}
	return unsafe.Pointer(&b[0]), C.size_t(len(b)), 1
}
