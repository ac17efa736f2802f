// The C side of the binding: what would cost Go one cgo call per LMDB call
// done in one. A write transaction begins, applies a whole batch (package
// cbatch's encoding) and commits in one call, which also keeps it on the
// one OS thread LMDB requires; an iterator's cursor copies many entries
// into package cursor's buffer per call, stopping at its bounds.
//
// Return codes are LMDB's: 0, one of its MDB_* codes or an errno. Keys
// and values come from Go with their lengths; a key may be NULL only with
// length 0.

#ifndef TSB_LMDB_BINDING_H
#define TSB_LMDB_BINDING_H

#include <stddef.h>

#include <lmdb.h>

#include "cursor/cursor.h"

// The longest key LMDB stores: MDB_MAXKEYSIZE, fixed when mdb.c is
// compiled (Open checks it against mdb_env_get_maxkeysize).
enum { TSB_LMDB_MAXKEY = 511 };

// tsb_lmdb_env is an environment opened by tsb_lmdb_open, with its root
// database, or rc saying why it could not be.
typedef struct {
	MDB_env *env;
	MDB_dbi dbi;
	int rc;
} tsb_lmdb_env;

// tsb_lmdb_open creates an environment with a map of mapsize bytes and
// room for maxreaders readers, opens it in dir with flags (MDB_NOTLS
// added) and opens its unnamed root database.
tsb_lmdb_env tsb_lmdb_open(const char *dir, unsigned flags, size_t mapsize, unsigned maxreaders);

// tsb_lmdb_mapsize returns the size of env's map.
size_t tsb_lmdb_mapsize(MDB_env *env);

// The write transactions. Each begins, writes and commits, or aborts
// having written nothing: MDB_MAP_FULL tells Go to grow the map and call
// again. A delete of an absent key, or of one LMDB cannot store, succeeds.

// tsb_lmdb_write applies rep, n bytes that package cbatch encoded.
int tsb_lmdb_write(MDB_env *env, MDB_dbi dbi, const char *rep, size_t n);
int tsb_lmdb_put(MDB_env *env, MDB_dbi dbi, const char *k, size_t klen, const char *v, size_t vlen);
int tsb_lmdb_delete(MDB_env *env, MDB_dbi dbi, const char *k, size_t klen);

// tsb_lmdb_chunk is the result of tsb_lmdb_delete_range.
typedef struct {
	int rc;
	int done; // the range holds no more keys
} tsb_lmdb_chunk;

// tsb_lmdb_delete_range deletes up to max keys of [start, end) in one
// write transaction, from the first; hasend 0 means no end.
tsb_lmdb_chunk tsb_lmdb_delete_range(MDB_env *env, MDB_dbi dbi, const char *start, size_t startlen,
				     const char *end, size_t endlen, int hasend, size_t max);

// tsb_lmdb_read is a read-only transaction from tsb_lmdb_begin_read, or
// the code it failed with (txn is then NULL).
typedef struct {
	MDB_txn *txn;
	int rc;
} tsb_lmdb_read;

// tsb_lmdb_begin_read renews txn, a reset read-only transaction, or
// begins one when txn is NULL. A txn that cannot be renewed is aborted.
tsb_lmdb_read tsb_lmdb_begin_read(MDB_env *env, MDB_txn *txn);

// tsb_lmdb_value is the result of tsb_lmdb_get: a value in the map,
// valid until the transaction ends or the map moves.
typedef struct {
	MDB_txn *txn;
	const char *val;
	size_t vlen;
	int rc; // MDB_NOTFOUND when absent; txn is NULL when it did not begin
} tsb_lmdb_value;

// tsb_lmdb_get looks k up in a read-only transaction begun as
// tsb_lmdb_begin_read does; Go copies the value out, then resets txn.
tsb_lmdb_value tsb_lmdb_get(MDB_env *env, MDB_txn *txn, MDB_dbi dbi, const char *k, size_t klen);

// tsb_lmdb_check reads every entry of dbi in txn and returns the first
// failure: a damaged page shows as MDB_CORRUPTED or MDB_PAGE_NOTFOUND.
int tsb_lmdb_check(MDB_txn *txn, MDB_dbi dbi);

// The iterator cursor: an LMDB cursor in a read-only transaction of its
// own, its bounds, and its last fill. Go reads fill and rc after each
// tsb_lmdb_cursor_fill.
typedef struct {
	MDB_txn *txn;
	MDB_cursor *cur;
	tsb_cursor_bounds b; // their room follows the struct
	tsb_cursor_buf fill;
	int rc; // the error that ended the last fill, or 0
	// resting: the cursor rests on the entry the last fill had no room
	// for, where the next fill in its direction starts. rest is that
	// entry's key, by which lost (set when the map moved, which resets
	// the cursor) finds it again.
	int resting, lost;
	size_t restlen;
	char rest[TSB_LMDB_MAXKEY];
} tsb_lmdb_cursor;

// tsb_lmdb_iter is the result of tsb_lmdb_cursor_new: a cursor, or the
// code it failed with (c is then NULL and txn aborted).
typedef struct {
	tsb_lmdb_cursor *c;
	int rc;
} tsb_lmdb_iter;

// tsb_lmdb_cursor_new begins a read-only transaction as
// tsb_lmdb_begin_read does and opens a cursor over dbi within [lower,
// upper) in it; a bound with has* 0 is none. The bounds are copied.
tsb_lmdb_iter tsb_lmdb_cursor_new(MDB_env *env, MDB_txn *txn, MDB_dbi dbi,
				  const char *lower, size_t lowerlen, int haslower,
				  const char *upper, size_t upperlen, int hasupper);

// tsb_lmdb_cursor_bounds gives the cursor new bounds, copied, keeping its
// transaction and so its view: the next fill must position it (FIRST,
// LAST or SEEK). It returns 0, or ENOMEM leaving the bounds unchanged.
int tsb_lmdb_cursor_bounds(tsb_lmdb_cursor *c, const char *lower, size_t lowerlen, int haslower,
			   const char *upper, size_t upperlen, int hasupper);

// tsb_lmdb_cursor_fill starts with op, a TSB_CURSOR_* of cursor.h, and
// fills cap bytes at buf with at most limit entries (0: the ramp's),
// reporting in c->fill and c->rc. k is the target of SEEK, AFTER and
// BEFORE; it may point into buf, which is written only once the cursor is
// positioned.
void tsb_lmdb_cursor_fill(tsb_lmdb_cursor *c, int op, const char *k, size_t klen, char *buf, size_t cap,
			  int limit);

// tsb_lmdb_cursor_renew rebinds the cursor after the map moved, which left
// its page pointers dangling; the next fill that goes on from where the
// last stopped first finds that entry again.
int tsb_lmdb_cursor_renew(tsb_lmdb_cursor *c);

// tsb_lmdb_cursor_free releases the cursor and returns its transaction,
// reset, for reuse.
MDB_txn *tsb_lmdb_cursor_free(tsb_lmdb_cursor *c);

#endif
