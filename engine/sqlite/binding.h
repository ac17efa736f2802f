// The C side of the binding: SQLite's functions this package calls, and
// helpers that keep each Put, Get and iterator step to one cgo call.
//
// SQLite itself is the amalgamation that github.com/mattn/go-sqlite3
// compiles into the binary (sqlite.go imports it for that). Its header is
// not on this package's include path, so the few functions used are
// declared here with the signatures of sqlite3.h; SQLite's C interface is
// stable across 3.x releases.

#ifndef TSB_SQLITE_BINDING_H
#define TSB_SQLITE_BINDING_H

#include <stddef.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef unsigned long long sqlite3_uint64;

int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs);
int sqlite3_close_v2(sqlite3 *db);
int sqlite3_exec(sqlite3 *db, const char *sql, int (*callback)(void *, int, char **, char **),
		 void *arg, char **errmsg);
void sqlite3_free(void *p);
const char *sqlite3_errmsg(sqlite3 *db);
const char *sqlite3_errstr(int rc);
int sqlite3_busy_timeout(sqlite3 *db, int ms);
int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int nbyte, unsigned int flags,
		       sqlite3_stmt **stmt, const char **tail);
int sqlite3_finalize(sqlite3_stmt *stmt);
int sqlite3_reset(sqlite3_stmt *stmt);
int sqlite3_clear_bindings(sqlite3_stmt *stmt);
int sqlite3_bind_blob64(sqlite3_stmt *stmt, int i, const void *p, sqlite3_uint64 n, void (*destructor)(void *));
int sqlite3_step(sqlite3_stmt *stmt);
const void *sqlite3_column_blob(sqlite3_stmt *stmt, int col);
int sqlite3_column_bytes(sqlite3_stmt *stmt, int col);
const unsigned char *sqlite3_column_text(sqlite3_stmt *stmt, int col);
const char *sqlite3_libversion(void);
int sqlite3_compileoption_used(const char *name);
int sqlite3_wal_checkpoint_v2(sqlite3 *db, const char *schema, int mode, int *nlog, int *nckpt);

// Result codes and flags, with sqlite3.h's values.
enum {
	TSB_SQLITE_OK = 0,
	TSB_SQLITE_BUSY = 5,
	TSB_SQLITE_LOCKED = 6,
	TSB_SQLITE_NOMEM = 7,
	TSB_SQLITE_CORRUPT = 11,
	TSB_SQLITE_FULL = 13,
	TSB_SQLITE_TOOBIG = 18,
	TSB_SQLITE_NOTADB = 26,
	TSB_SQLITE_ROW = 100,
	TSB_SQLITE_DONE = 101,
	TSB_SQLITE_OPEN_READWRITE = 0x00000002,
	TSB_SQLITE_OPEN_CREATE = 0x00000004,
	TSB_SQLITE_OPEN_NOMUTEX = 0x00008000,
	TSB_SQLITE_PREPARE_PERSISTENT = 0x01,
	TSB_SQLITE_CHECKPOINT_TRUNCATE = 3,
};

// tsb_sqlite_prepare compiles sql on db for repeated use.
int tsb_sqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **stmt);

// tsb_sqlite_exec runs a statement taking up to two blob parameters (a
// NULL pointer binds nothing) and returning no rows, then resets it. It
// returns SQLITE_DONE on success.
int tsb_sqlite_exec(sqlite3_stmt *stmt, const void *a, size_t alen, int hasa,
		    const void *b, size_t blen, int hasb);

// tsb_sqlite_get runs stmt (SELECT v ... WHERE k = ?1) for key. On
// SQLITE_ROW *val and *vlen hold the value, valid until
// tsb_sqlite_get_done, which must follow every call.
int tsb_sqlite_get(sqlite3_stmt *stmt, const void *key, size_t klen,
		   const void **val, size_t *vlen);
void tsb_sqlite_get_done(sqlite3_stmt *stmt);

// The statement shapes of a cursor: forward or backward, with an upper
// bound (k < ?2) or without. Every shape has a lower bound (k >= ?1),
// the empty blob when the iterator has none, which sorts below every key.
enum {
	TSB_SQLITE_FWD_OPEN,
	TSB_SQLITE_FWD_BOUNDED,
	TSB_SQLITE_BWD_OPEN,
	TSB_SQLITE_BWD_BOUNDED,
	TSB_SQLITE_SHAPES,
};

// tsb_sqlite_cursor walks the key range of an iterator with ordered
// SELECTs, one active at a time: a move in the same direction steps it,
// a change of direction or a Seek starts another from the current key.
// The entry it rests on is kept here so that Go reads the key and value
// pointers (SQLite's own memory, valid until the next step) without
// another call. Statements are prepared on first use and kept for the
// cursor's next iterator on the same connection.
typedef struct {
	sqlite3 *db;
	sqlite3_stmt *shape[TSB_SQLITE_SHAPES];
	sqlite3_stmt *cur; // the active statement, or NULL
	int back;	   // cur runs backward
	char *lower;	   // bound copies; lower NULL is the empty key
	size_t lowerlen;
	char *upper; // NULL is no upper bound
	size_t upperlen;
	char *pivot; // copy of the key a direction change starts from
	size_t pivotlen, pivotcap;
	const void *key;
	size_t klen;
	const void *val;
	size_t vlen;
	int rc; // the first failure, or SQLITE_OK
} tsb_sqlite_cursor;

enum {
	TSB_SQLITE_FIRST,
	TSB_SQLITE_LAST,
	TSB_SQLITE_SEEK,
	TSB_SQLITE_NEXT,
	TSB_SQLITE_PREV,
};

// tsb_sqlite_cursor_new returns a cursor on db, or NULL when out of memory.
tsb_sqlite_cursor *tsb_sqlite_cursor_new(sqlite3 *db);
// tsb_sqlite_cursor_bound copies the bounds (has* false: none); it returns
// SQLITE_NOMEM when out of memory.
int tsb_sqlite_cursor_bound(tsb_sqlite_cursor *c,
			    const char *lower, size_t lowerlen, int haslower,
			    const char *upper, size_t upperlen, int hasupper);
// tsb_sqlite_cursor_release stops the active statement and drops the
// bounds, keeping the prepared statements for the next iterator.
void tsb_sqlite_cursor_release(tsb_sqlite_cursor *c);
// tsb_sqlite_cursor_free finalizes the statements and frees c.
void tsb_sqlite_cursor_free(tsb_sqlite_cursor *c);
// tsb_sqlite_cursor_move positions the cursor (k is the Seek target) and
// reports whether it rests on a key within bounds; c->rc is set on failure.
int tsb_sqlite_cursor_move(tsb_sqlite_cursor *c, int op, const char *k, size_t klen);

// tsb_sqlite_fill is what tsb_sqlite_cursor_fill copied: n entries in
// used bytes; need is the size of the entry the cursor rests on when none
// fitted.
typedef struct {
	int n;
	size_t used, need;
} tsb_sqlite_fill;

// tsb_sqlite_cursor_fill copies entries going forward into cap bytes at
// buf, back to back as package engine's AppendEntry lays them out (the
// key's and the value's length as native uint32s, the key, the value), at
// most limit: from the first within bounds when first is set, otherwise
// from the one the cursor rests on. The cursor then rests on the entry
// after them, the first that did not fit, or on none (c->key NULL; c->rc
// is set on failure). One call copies many entries, where a move per
// entry would cost a cgo call each.
tsb_sqlite_fill tsb_sqlite_cursor_fill(tsb_sqlite_cursor *c, int first, char *buf, size_t cap, int limit);

#endif
