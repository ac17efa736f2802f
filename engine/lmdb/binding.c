#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"
#include "cbatch/cbatch.h"

tsb_lmdb_env tsb_lmdb_open(const char *dir, unsigned flags, size_t mapsize, unsigned maxreaders)
{
	tsb_lmdb_env e = {NULL, 0, 0};
	e.rc = mdb_env_create(&e.env);
	if (e.rc != 0)
		return e;
	if ((e.rc = mdb_env_set_mapsize(e.env, mapsize)) != 0 ||
	    (e.rc = mdb_env_set_maxreaders(e.env, maxreaders)) != 0 ||
	    // MDB_NOTLS: a read transaction is not tied to the OS thread that
	    // began it, so that an iterator may move between goroutines.
	    (e.rc = mdb_env_open(e.env, dir, flags | MDB_NOTLS, 0644)) != 0)
		goto fail;
	MDB_txn *txn;
	if ((e.rc = mdb_txn_begin(e.env, NULL, 0, &txn)) != 0)
		goto fail;
	if ((e.rc = mdb_dbi_open(txn, NULL, 0, &e.dbi)) != 0) {
		mdb_txn_abort(txn);
		goto fail;
	}
	if ((e.rc = mdb_txn_commit(txn)) != 0)
		goto fail;
	return e;
fail:
	mdb_env_close(e.env);
	e.env = NULL;
	return e;
}

size_t tsb_lmdb_mapsize(MDB_env *env)
{
	MDB_envinfo info;
	mdb_env_info(env, &info);
	return info.me_mapsize;
}

static int del(MDB_txn *txn, MDB_dbi dbi, MDB_val *key)
{
	int rc = mdb_del(txn, dbi, key, NULL);
	return rc == MDB_NOTFOUND || rc == MDB_BAD_VALSIZE ? 0 : rc;
}

// finish commits txn if rc is 0 and aborts it otherwise.
static int finish(MDB_txn *txn, int rc)
{
	if (rc != 0) {
		mdb_txn_abort(txn);
		return rc;
	}
	return mdb_txn_commit(txn);
}

int tsb_lmdb_write(MDB_env *env, MDB_dbi dbi, const char *rep, size_t n)
{
	MDB_txn *txn;
	int rc = mdb_txn_begin(env, NULL, 0, &txn);
	if (rc != 0)
		return rc;
	const unsigned char *p = (const unsigned char *)rep + TSB_CBATCH_HEADER;
	const unsigned char *stop = (const unsigned char *)rep + n;
	const char *k, *v = NULL;
	size_t klen, vlen = 0;
	int tag;
	while (rc == 0 && (tag = tsb_cbatch_next(&p, stop, &k, &klen, &v, &vlen)) >= 0) {
		MDB_val key = {klen, (void *)k};
		if (tag == TSB_CBATCH_PUT) {
			MDB_val val = {vlen, (void *)v};
			rc = mdb_put(txn, dbi, &key, &val, 0);
		} else {
			rc = del(txn, dbi, &key);
		}
	}
	return finish(txn, rc);
}

int tsb_lmdb_put(MDB_env *env, MDB_dbi dbi, const char *k, size_t klen, const char *v, size_t vlen)
{
	MDB_txn *txn;
	int rc = mdb_txn_begin(env, NULL, 0, &txn);
	if (rc != 0)
		return rc;
	MDB_val key = {klen, (void *)k}, val = {vlen, (void *)v};
	return finish(txn, mdb_put(txn, dbi, &key, &val, 0));
}

int tsb_lmdb_delete(MDB_env *env, MDB_dbi dbi, const char *k, size_t klen)
{
	MDB_txn *txn;
	int rc = mdb_txn_begin(env, NULL, 0, &txn);
	if (rc != 0)
		return rc;
	MDB_val key = {klen, (void *)k};
	return finish(txn, del(txn, dbi, &key));
}

// compare orders keys as LMDB's default comparison does: bytewise, a
// prefix first. It runs on every entry an iterator copies, against its
// bound, so it compares eight bytes at a time inline rather than calling
// memcmp.
static inline int compare(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen, i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t x, y;
		memcpy(&x, a + i, 8);
		memcpy(&y, b + i, 8);
		if (x != y) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			x = __builtin_bswap64(x);
			y = __builtin_bswap64(y);
#endif
			return x < y ? -1 : 1;
		}
	}
	for (; i < n; i++)
		if (a[i] != b[i])
			return (unsigned char)a[i] < (unsigned char)b[i] ? -1 : 1;
	return (alen > blen) - (alen < blen);
}

// seek moves cur to the first key >= k; every stored key is non-empty, so
// an empty k is the first key (LMDB refuses to seek to it).
static int seek(MDB_cursor *cur, const char *k, size_t klen, MDB_val *key, MDB_val *val)
{
	if (klen == 0)
		return mdb_cursor_get(cur, key, val, MDB_FIRST);
	key->mv_size = klen;
	key->mv_data = (void *)k;
	return mdb_cursor_get(cur, key, val, MDB_SET_RANGE);
}

tsb_lmdb_chunk tsb_lmdb_delete_range(MDB_env *env, MDB_dbi dbi, const char *start, size_t startlen,
				     const char *end, size_t endlen, int hasend, size_t max)
{
	tsb_lmdb_chunk r = {0, 0};
	MDB_txn *txn;
	MDB_cursor *cur;
	if ((r.rc = mdb_txn_begin(env, NULL, 0, &txn)) != 0)
		return r;
	if ((r.rc = mdb_cursor_open(txn, dbi, &cur)) != 0) {
		mdb_txn_abort(txn);
		return r;
	}
	MDB_val key, val;
	// Keys before start were deleted by the chunks before, so each chunk
	// starts from start.
	int rc = seek(cur, start, startlen, &key, &val);
	for (size_t n = 0; rc == 0; n++) {
		if (hasend && compare(key.mv_data, key.mv_size, end, endlen) >= 0) {
			rc = MDB_NOTFOUND;
			break;
		}
		if (n == max)
			break;
		if ((rc = mdb_cursor_del(cur, 0)) != 0)
			break;
		// After a delete the cursor rests on the following key, which
		// MDB_NEXT returns without skipping it.
		rc = mdb_cursor_get(cur, &key, &val, MDB_NEXT);
	}
	mdb_cursor_close(cur);
	if (rc == MDB_NOTFOUND) {
		r.done = 1;
		rc = 0;
	}
	r.rc = finish(txn, rc);
	return r;
}

tsb_lmdb_read tsb_lmdb_begin_read(MDB_env *env, MDB_txn *txn)
{
	tsb_lmdb_read r = {txn, 0};
	if (txn == NULL) {
		r.rc = mdb_txn_begin(env, NULL, MDB_RDONLY, &r.txn);
	} else if ((r.rc = mdb_txn_renew(txn)) != 0) {
		mdb_txn_abort(txn);
	}
	if (r.rc != 0)
		r.txn = NULL;
	return r;
}

tsb_lmdb_value tsb_lmdb_get(MDB_env *env, MDB_txn *txn, MDB_dbi dbi, const char *k, size_t klen)
{
	tsb_lmdb_read t = tsb_lmdb_begin_read(env, txn);
	tsb_lmdb_value r = {t.txn, NULL, 0, t.rc};
	if (r.rc != 0)
		return r;
	MDB_val key = {klen, (void *)k}, val;
	r.rc = mdb_get(r.txn, dbi, &key, &val);
	if (r.rc == 0) {
		r.val = val.mv_data;
		r.vlen = val.mv_size;
	}
	return r;
}

int tsb_lmdb_check(MDB_txn *txn, MDB_dbi dbi)
{
	MDB_cursor *cur;
	int rc = mdb_cursor_open(txn, dbi, &cur);
	if (rc != 0)
		return rc;
	MDB_val key, val;
	while ((rc = mdb_cursor_get(cur, &key, &val, MDB_NEXT)) == 0)
		;
	mdb_cursor_close(cur);
	return rc == MDB_NOTFOUND ? 0 : rc;
}

tsb_lmdb_iter tsb_lmdb_cursor_new(MDB_env *env, MDB_txn *txn, MDB_dbi dbi,
				  const char *lower, size_t lowerlen, int haslower,
				  const char *upper, size_t upperlen, int hasupper)
{
	tsb_lmdb_iter r = {NULL, 0};
	tsb_lmdb_read t = tsb_lmdb_begin_read(env, txn);
	if ((r.rc = t.rc) != 0)
		return r;
	// Not calloc: rest, most of the struct, needs no zeroing.
	tsb_lmdb_cursor *c = malloc(sizeof(tsb_lmdb_cursor) + TSB_CURSOR_ROOM);
	if (c == NULL) {
		mdb_txn_abort(t.txn);
		r.rc = ENOMEM;
		return r;
	}
	memset(c, 0, offsetof(tsb_lmdb_cursor, rest));
	tsb_cursor_bounds_init(&c->b, (char *)(c + 1));
	if ((r.rc = tsb_lmdb_cursor_bounds(c, lower, lowerlen, haslower, upper, upperlen, hasupper)) != 0 ||
	    (r.rc = mdb_cursor_open(t.txn, dbi, &c->cur)) != 0) {
		mdb_txn_abort(t.txn);
		tsb_cursor_bounds_free(&c->b);
		free(c);
		return r;
	}
	c->txn = t.txn;
	r.c = c;
	return r;
}

int tsb_lmdb_cursor_bounds(tsb_lmdb_cursor *c, const char *lower, size_t lowerlen, int haslower,
			   const char *upper, size_t upperlen, int hasupper)
{
	if (tsb_cursor_bounds_set(&c->b, lower, lowerlen, haslower, upper, upperlen, hasupper) != 0)
		return ENOMEM;
	c->resting = c->lost = 0;
	return 0;
}

MDB_txn *tsb_lmdb_cursor_free(tsb_lmdb_cursor *c)
{
	MDB_txn *txn = c->txn;
	mdb_cursor_close(c->cur);
	mdb_txn_reset(txn);
	tsb_cursor_bounds_free(&c->b);
	free(c);
	return txn;
}

int tsb_lmdb_cursor_renew(tsb_lmdb_cursor *c)
{
	c->lost = c->resting;
	return mdb_cursor_renew(c->txn, c->cur);
}

// seek_within moves the cursor to the first key >= k within the lower
// bound.
static int seek_within(tsb_lmdb_cursor *c, const char *k, size_t klen, MDB_val *key, MDB_val *val)
{
	if (c->b.lower != NULL && compare(k, klen, c->b.lower, c->b.lowerlen) < 0) {
		k = c->b.lower;
		klen = c->b.lowerlen;
	}
	return seek(c->cur, k, klen, key, val);
}

// last moves the cursor to the last key below the upper bound: the one
// before the first key at or above it, or the very last one.
static int last(tsb_lmdb_cursor *c, MDB_val *key, MDB_val *val)
{
	if (c->b.upper != NULL) {
		if (c->b.upperlen == 0)
			return MDB_NOTFOUND; // every key is at or above ""
		int rc = seek(c->cur, c->b.upper, c->b.upperlen, key, val);
		if (rc == 0)
			return mdb_cursor_get(c->cur, key, val, MDB_PREV);
		if (rc != MDB_NOTFOUND)
			return rc;
	}
	return mdb_cursor_get(c->cur, key, val, MDB_LAST);
}

// copy copies n bytes from s to d. The entries of a scan are mostly a few
// dozen bytes, which fixed-size moves copy faster than a call to memcpy;
// the two moves of each size overlap rather than read past s + n.
static inline void copy(char *d, const char *s, size_t n)
{
	if (n >= 16 && n <= 32) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n > 32 && n <= 64) {
		memcpy(d, s, 32);
		memcpy(d + n - 32, s + n - 32, 32);
	} else {
		memcpy(d, s, n);
	}
}

// add appends an entry to the fill as tsb_cursor_add of cursor.h does,
// with its return values. LMDB keeps a value right after its key in the
// leaf node, unless the value is on overflow pages, so one copy usually
// takes both.
static inline int add(tsb_cursor_buf *b, const MDB_val *key, const MDB_val *val)
{
	size_t klen = key->mv_size, vlen = val->mv_size;
	char *d;
	int r = tsb_cursor_reserve(b, klen, vlen, &d);
	if (r != 1)
		return r;
	if ((const char *)key->mv_data + klen == val->mv_data) {
		copy(d, key->mv_data, klen + vlen);
	} else {
		copy(d, key->mv_data, klen);
		copy(d + klen, val->mv_data, vlen);
	}
	return 1;
}

// collect copies entries into the fill, starting with the one rc, key and
// val report and moving forward or backward, until it is full, a bound or
// an end is reached, or LMDB fails. The cursor is left on the first entry
// not copied, where the next fill in the same direction starts.
static void collect(tsb_lmdb_cursor *c, int rc, MDB_val *key, MDB_val *val, int forward)
{
	tsb_cursor_buf *b = &c->fill;
	MDB_cursor_op step = forward ? MDB_NEXT : MDB_PREV;
	for (; rc == 0; rc = mdb_cursor_get(c->cur, key, val, step)) {
		if (forward ? c->b.upper != NULL && compare(key->mv_data, key->mv_size, c->b.upper, c->b.upperlen) >= 0
			    : c->b.lower != NULL && compare(key->mv_data, key->mv_size, c->b.lower, c->b.lowerlen) < 0)
			break;
		switch (add(b, key, val)) {
		case 0:
			if (key->mv_size > sizeof c->rest) {
				rc = MDB_BAD_VALSIZE; // not a key LMDB stores
				goto done;
			}
			c->resting = 1;
			c->restlen = key->mv_size;
			memmove(c->rest, key->mv_data, key->mv_size);
			return;
		case -1:
			rc = MDB_BAD_VALSIZE; // 4 GiB or more
			goto done;
		}
	}
done:
	b->end = 1;
	if (rc != MDB_NOTFOUND)
		c->rc = rc;
}

void tsb_lmdb_cursor_fill(tsb_lmdb_cursor *c, int op, const char *k, size_t klen, char *buf, size_t cap,
			  int limit)
{
	MDB_val key, val;
	int rc = 0, forward = 1;
	MDB_cursor_op cont = MDB_GET_CURRENT;
	switch (op) {
	case TSB_CURSOR_FIRST:
		rc = c->b.lower != NULL ? seek(c->cur, c->b.lower, c->b.lowerlen, &key, &val)
				      : mdb_cursor_get(c->cur, &key, &val, MDB_FIRST);
		break;
	case TSB_CURSOR_LAST:
		rc = last(c, &key, &val);
		forward = 0;
		break;
	case TSB_CURSOR_SEEK:
		rc = seek_within(c, k, klen, &key, &val);
		break;
	case TSB_CURSOR_AFTER:
		rc = seek_within(c, k, klen, &key, &val);
		if (rc == 0 && compare(key.mv_data, key.mv_size, k, klen) == 0)
			rc = mdb_cursor_get(c->cur, &key, &val, MDB_NEXT);
		break;
	case TSB_CURSOR_BEFORE:
		rc = seek_within(c, k, klen, &key, &val);
		if (rc == 0)
			rc = mdb_cursor_get(c->cur, &key, &val, MDB_PREV);
		else if (rc == MDB_NOTFOUND)
			rc = last(c, &key, &val);
		forward = 0;
		break;
	case TSB_CURSOR_NEXT:
	case TSB_CURSOR_PREV:
		forward = op == TSB_CURSOR_NEXT;
		if (c->lost) {
			// The map moved: find the entry again in the snapshot,
			// which still holds it.
			key.mv_size = c->restlen;
			key.mv_data = c->rest;
			cont = MDB_SET_KEY;
		}
		rc = mdb_cursor_get(c->cur, &key, &val, cont);
		break;
	}
	c->resting = c->lost = 0;
	c->rc = 0;
	tsb_cursor_start(&c->fill, buf, cap, tsb_cursor_limit(op, c->fill.limit, limit));
	collect(c, rc, &key, &val, forward);
	c->fill.buf = NULL; // Go's memory, lent for this call only
}
