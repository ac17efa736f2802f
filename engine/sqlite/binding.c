#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

// SQLITE_STATIC: the bound memory outlives the statement's use of it.
#define STATIC ((void (*)(void *))0)

// bind binds a blob parameter. A NULL pointer would bind SQL NULL, so the
// empty key or value points at a static empty string instead.
static int bind(sqlite3_stmt *s, int i, const void *p, size_t n)
{
	return sqlite3_bind_blob64(s, i, n > 0 ? p : "", n, STATIC);
}

int tsb_sqlite_prepare(sqlite3 *db, const char *sql, sqlite3_stmt **stmt)
{
	return sqlite3_prepare_v3(db, sql, -1, TSB_SQLITE_PREPARE_PERSISTENT, stmt, NULL);
}

int tsb_sqlite_exec(sqlite3_stmt *s, const void *a, size_t alen, int hasa,
		    const void *b, size_t blen, int hasb)
{
	int rc = TSB_SQLITE_OK;
	if (hasa)
		rc = bind(s, 1, a, alen);
	if (rc == TSB_SQLITE_OK && hasb)
		rc = bind(s, 2, b, blen);
	if (rc == TSB_SQLITE_OK)
		rc = sqlite3_step(s);
	// The parameters point into Go memory: unbind them before returning.
	int rrc = sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (rc == TSB_SQLITE_DONE || rc == TSB_SQLITE_ROW)
		return rrc == TSB_SQLITE_OK ? TSB_SQLITE_DONE : rrc;
	return rc;
}

int tsb_sqlite_get(sqlite3_stmt *s, const void *key, size_t klen,
		   const void **val, size_t *vlen)
{
	int rc = bind(s, 1, key, klen);
	if (rc != TSB_SQLITE_OK)
		return rc;
	rc = sqlite3_step(s);
	if (rc == TSB_SQLITE_ROW) {
		*val = sqlite3_column_blob(s, 0);
		*vlen = (size_t)sqlite3_column_bytes(s, 0);
	}
	return rc;
}

void tsb_sqlite_get_done(sqlite3_stmt *s)
{
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
}

static const char *const shapes[TSB_SQLITE_SHAPES] = {
	[TSB_SQLITE_FWD_OPEN] = "SELECT k, v FROM kv WHERE k >= ?1 ORDER BY k",
	[TSB_SQLITE_FWD_BOUNDED] = "SELECT k, v FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k",
	[TSB_SQLITE_BWD_OPEN] = "SELECT k, v FROM kv WHERE k >= ?1 ORDER BY k DESC",
	[TSB_SQLITE_BWD_BOUNDED] = "SELECT k, v FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k DESC",
};

tsb_sqlite_cursor *tsb_sqlite_cursor_new(sqlite3 *db)
{
	tsb_sqlite_cursor *c = calloc(1, sizeof *c);
	if (c != NULL)
		c->db = db;
	return c;
}

static char *copy(const char *p, size_t n)
{
	char *d = malloc(n > 0 ? n : 1);
	if (d != NULL && n > 0)
		memcpy(d, p, n);
	return d;
}

int tsb_sqlite_cursor_bound(tsb_sqlite_cursor *c,
			    const char *lower, size_t lowerlen, int haslower,
			    const char *upper, size_t upperlen, int hasupper)
{
	if (haslower) {
		if ((c->lower = copy(lower, lowerlen)) == NULL)
			return TSB_SQLITE_NOMEM;
		c->lowerlen = lowerlen;
	}
	if (hasupper) {
		if ((c->upper = copy(upper, upperlen)) == NULL)
			return TSB_SQLITE_NOMEM;
		c->upperlen = upperlen;
	}
	return TSB_SQLITE_OK;
}

// stop ends the active statement, if any.
static void stop(tsb_sqlite_cursor *c)
{
	if (c->cur != NULL) {
		sqlite3_reset(c->cur);
		c->cur = NULL;
	}
	c->key = NULL;
}

void tsb_sqlite_cursor_release(tsb_sqlite_cursor *c)
{
	stop(c);
	free(c->lower);
	free(c->upper);
	c->lower = c->upper = NULL;
	c->lowerlen = c->upperlen = 0;
	c->rc = TSB_SQLITE_OK;
}

void tsb_sqlite_cursor_free(tsb_sqlite_cursor *c)
{
	tsb_sqlite_cursor_release(c);
	for (int i = 0; i < TSB_SQLITE_SHAPES; i++)
		sqlite3_finalize(c->shape[i]);
	free(c->pivot);
	free(c);
}

// step advances the active statement and records the row it reaches.
static int step(tsb_sqlite_cursor *c)
{
	int rc = sqlite3_step(c->cur);
	if (rc == TSB_SQLITE_ROW) {
		c->key = sqlite3_column_blob(c->cur, 0);
		c->klen = (size_t)sqlite3_column_bytes(c->cur, 0);
		c->val = sqlite3_column_blob(c->cur, 1);
		c->vlen = (size_t)sqlite3_column_bytes(c->cur, 1);
		return 1;
	}
	c->key = NULL;
	if (rc != TSB_SQLITE_DONE)
		c->rc = rc;
	return 0;
}

// start runs shape over keys >= from and, for the bounded shapes, < to.
// from and to point into the cursor's own memory, which outlives the
// statement's run.
static int start(tsb_sqlite_cursor *c, int shape, const char *from, size_t fromlen,
		 const char *to, size_t tolen)
{
	stop(c);
	sqlite3_stmt *s = c->shape[shape];
	if (s == NULL) {
		int rc = tsb_sqlite_prepare(c->db, shapes[shape], &s);
		if (rc != TSB_SQLITE_OK) {
			c->rc = rc;
			return 0;
		}
		c->shape[shape] = s;
	}
	int rc = bind(s, 1, from, fromlen);
	if (rc == TSB_SQLITE_OK && (shape == TSB_SQLITE_FWD_BOUNDED || shape == TSB_SQLITE_BWD_BOUNDED))
		rc = bind(s, 2, to, tolen);
	if (rc != TSB_SQLITE_OK) {
		c->rc = rc;
		return 0;
	}
	c->cur = s;
	c->back = shape == TSB_SQLITE_BWD_OPEN || shape == TSB_SQLITE_BWD_BOUNDED;
	return step(c);
}

static int compare(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int r = n > 0 ? memcmp(a, b, n) : 0;
	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

// hold copies the current key into c->pivot, so that a new statement can
// start from it once the current one, which owns the key, is reset.
static int hold(tsb_sqlite_cursor *c)
{
	if (c->klen > c->pivotcap) {
		char *p = realloc(c->pivot, c->klen);
		if (p == NULL) {
			c->rc = TSB_SQLITE_NOMEM;
			return 0;
		}
		c->pivot = p;
		c->pivotcap = c->klen;
	}
	if (c->klen > 0)
		memcpy(c->pivot, c->key, c->klen);
	c->pivotlen = c->klen;
	return 1;
}

int tsb_sqlite_cursor_move(tsb_sqlite_cursor *c, int op, const char *k, size_t klen)
{
	int fwd = c->upper != NULL ? TSB_SQLITE_FWD_BOUNDED : TSB_SQLITE_FWD_OPEN;
	switch (op) {
	case TSB_SQLITE_FIRST:
		return start(c, fwd, c->lower, c->lowerlen, c->upper, c->upperlen);
	case TSB_SQLITE_LAST:
		return start(c, c->upper != NULL ? TSB_SQLITE_BWD_BOUNDED : TSB_SQLITE_BWD_OPEN,
			     c->lower, c->lowerlen, c->upper, c->upperlen);
	case TSB_SQLITE_SEEK:
		if (c->lower != NULL && compare(k, klen, c->lower, c->lowerlen) < 0)
			return start(c, fwd, c->lower, c->lowerlen, c->upper, c->upperlen);
		// k is Go memory: start from a copy.
		c->key = k;
		c->klen = klen;
		if (!hold(c))
			return 0;
		return start(c, fwd, c->pivot, c->pivotlen, c->upper, c->upperlen);
	case TSB_SQLITE_NEXT:
		if (c->key == NULL)
			return 0;
		if (!c->back)
			return step(c);
		// Forward from the current key, which the snapshot still holds:
		// the first row is that key, skip it.
		if (!hold(c) || !start(c, fwd, c->pivot, c->pivotlen, c->upper, c->upperlen))
			return 0;
		if (compare(c->key, c->klen, c->pivot, c->pivotlen) == 0)
			return step(c);
		return 1;
	case TSB_SQLITE_PREV:
		if (c->key == NULL)
			return 0;
		if (c->back)
			return step(c);
		// Backward below the current key: it is the exclusive bound.
		if (!hold(c))
			return 0;
		return start(c, TSB_SQLITE_BWD_BOUNDED, c->lower, c->lowerlen, c->pivot, c->pivotlen);
	}
	return 0;
}

tsb_sqlite_fill tsb_sqlite_cursor_fill(tsb_sqlite_cursor *c, int first, char *buf, size_t cap, int limit)
{
	tsb_sqlite_fill f = {0, 0, 0};
	if (first) {
		if (!tsb_sqlite_cursor_move(c, TSB_SQLITE_FIRST, NULL, 0))
			return f;
	} else if (c->key != NULL && c->back) {
		// Forward from the current key, which the snapshot still holds.
		if (!hold(c) || !start(c, c->upper != NULL ? TSB_SQLITE_FWD_BOUNDED : TSB_SQLITE_FWD_OPEN,
				       c->pivot, c->pivotlen, c->upper, c->upperlen))
			return f;
	}
	for (; c->key != NULL && f.n < limit; f.n++) {
		size_t size = 2 * sizeof(uint32_t) + c->klen + c->vlen;
		if (size > cap - f.used) {
			if (f.n == 0)
				f.need = size;
			break;
		}
		uint32_t h[2] = {(uint32_t)c->klen, (uint32_t)c->vlen};
		char *d = buf + f.used;
		memcpy(d, h, sizeof h);
		// SQLite returns NULL for an empty blob, which memcpy may not
		// take even for no bytes.
		if (c->klen > 0)
			memcpy(d + sizeof h, c->key, c->klen);
		if (c->vlen > 0)
			memcpy(d + sizeof h + c->klen, c->val, c->vlen);
		f.used += size;
		step(c);
	}
	return f;
}
