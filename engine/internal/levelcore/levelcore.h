// The C core of the LevelDB-family backends (leveldb, hyperleveldb,
// rocksdb), written once against the C API the three libraries share under
// different prefixes (leveldb_iter_seek, hyperleveldb_iter_seek,
// rocksdb_iter_seek, ...): a bulk iterator cursor, the point operations
// and the batch write.
//
// A backend's binding.h defines LEVELCORE_PREFIX as its library's prefix,
// includes the library's c.h, then this header; its binding.c defines
// LEVELCORE_IMPLEMENTATION and includes binding.h. Every name below is
// tsb_<prefix>_..., so the backends link into one binary side by side.
// LEVELCORE_ROCKSDB selects what RocksDB does differently: its iterators
// take bounds in their read options, which lets it skip whatever lies
// beyond them, and it has a flush of its own.
//
// Callers pass lengths and pointers from Go; a key may be NULL only with
// length 0.

#ifndef TSB_LEVELCORE_H
#define TSB_LEVELCORE_H

#include <stddef.h>

#include "cbatch/cbatch.h"
#include "cursor/cursor.h"

#define LEVELCORE_CAT_(a, b) a##b
#define LEVELCORE_CAT(a, b) LEVELCORE_CAT_(a, b)
// LIB(x) is the library's x, TSB(x) this core's.
#define LIB(x) LEVELCORE_CAT(LEVELCORE_PREFIX, LEVELCORE_CAT(_, x))
#define TSB(x) LEVELCORE_CAT(tsb_, LIB(x))

// The cursor: a library iterator, the bounds it keeps to, and its last
// fill. Go reads fill and err after each tsb_*_cursor_fill.
typedef struct {
	LIB(iterator_t) *it;
	char *lower; // NULL when unbounded; after the struct
	size_t lowerlen;
	char *upper;
	size_t upperlen;
#ifdef LEVELCORE_ROCKSDB
	LIB(readoptions_t) *ro; // holds the bounds for it
#endif
	tsb_cursor_buf fill;
	char *err; // set when the iterator failed; Go frees it
} TSB(cursor);

// tsb_*_cursor_new creates an iterator over db within [lower, upper); a
// bound with has* 0 is none. The bounds are copied. It returns NULL when
// memory runs out. RocksDB takes its read options from the cursor, so it
// ignores ro.
TSB(cursor) *TSB(cursor_new)(LIB(t) *db, const LIB(readoptions_t) *ro,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper);

// tsb_*_cursor_fill starts with op, a TSB_CURSOR_* of cursor.h, and fills
// cap bytes at buf, reporting in c->fill. k is the target of SEEK, AFTER
// and BEFORE; it may point into buf, which is written only once the
// iterator is positioned.
void TSB(cursor_fill)(TSB(cursor) *c, int op, const char *k, size_t klen,
		      char *buf, size_t cap);

// tsb_*_cursor_free releases the cursor and its iterator.
void TSB(cursor_free)(TSB(cursor) *c);

// The point operations return their error (or NULL) instead of filling an
// out-parameter, so that Go passes no pointer to its own stack variables,
// which would move them to the heap on every call.

// TSB(value) is the result of tsb_*_get: val is NULL when the key is
// absent, and is freed with the library's free.
typedef struct {
	char *val;
	size_t vlen;
	char *err;
} TSB(value);

TSB(value) TSB(get)(LIB(t) *db, const LIB(readoptions_t) *ro,
		    const char *k, size_t klen);
char *TSB(put)(LIB(t) *db, const LIB(writeoptions_t) *wo,
	       const char *k, size_t klen, const char *v, size_t vlen);
char *TSB(delete)(LIB(t) *db, const LIB(writeoptions_t) *wo,
		  const char *k, size_t klen);

#ifdef LEVELCORE_ROCKSDB
// tsb_*_write commits rep, a batch package cbatch encoded, in one write.
char *TSB(write)(LIB(t) *db, const LIB(writeoptions_t) *wo,
		 const char *rep, size_t n);
#else
// tsb_*_write commits rep, a batch package cbatch encoded, in one write,
// through b, an empty write batch it leaves empty: reusing one keeps the
// memory it grew, as a C program reuses its batch.
char *TSB(write)(LIB(t) *db, const LIB(writeoptions_t) *wo, LIB(writebatch_t) *b,
		 const char *rep, size_t n);
#endif

#ifndef LEVELCORE_ROCKSDB
// tsb_*_flush_memtable writes the memtable to a table file.
void TSB(flush_memtable)(LIB(t) *db);
#endif

#ifdef LEVELCORE_IMPLEMENTATION

#include <stdlib.h>
#include <string.h>

static int TSB(compare)(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int r = n > 0 ? memcmp(a, b, n) : 0;
	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

TSB(cursor) *TSB(cursor_new)(LIB(t) *db, const LIB(readoptions_t) *ro,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper)
{
	// One allocation holds the cursor and copies of its bounds.
	size_t n = sizeof(TSB(cursor)) + (haslower ? lowerlen : 0) + (hasupper ? upperlen : 0);
	TSB(cursor) *c = calloc(1, n);
	if (c == NULL)
		return NULL;
	char *p = (char *)(c + 1);
	if (haslower) {
		c->lower = p;
		c->lowerlen = lowerlen;
		memcpy(p, lower, lowerlen);
		p += lowerlen;
	}
	if (hasupper) {
		c->upper = p;
		c->upperlen = upperlen;
		memcpy(p, upper, upperlen);
	}
#ifdef LEVELCORE_ROCKSDB
	// The iterator reads its bounds through these options for its whole
	// life; they point into the cursor's copies.
	(void)ro;
	c->ro = rocksdb_readoptions_create();
	if (c->lower != NULL)
		rocksdb_readoptions_set_iterate_lower_bound(c->ro, c->lower, lowerlen);
	if (c->upper != NULL)
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, c->upper, upperlen);
	ro = c->ro;
#endif
	c->it = LIB(create_iterator)(db, ro);
	return c;
}

void TSB(cursor_free)(TSB(cursor) *c)
{
	// The iterator goes first: it may read the options and bounds.
	LIB(iter_destroy)(c->it);
#ifdef LEVELCORE_ROCKSDB
	rocksdb_readoptions_destroy(c->ro);
#endif
	LIB(free)(c->err);
	free(c);
}

// seek positions the iterator on the first key >= k within bounds.
static void TSB(seek)(TSB(cursor) *c, const char *k, size_t klen)
{
	if (c->lower != NULL && TSB(compare)(k, klen, c->lower, c->lowerlen) < 0) {
		k = c->lower;
		klen = c->lowerlen;
	}
	LIB(iter_seek)(c->it, k, klen);
}

// last positions the iterator on the last key below the upper bound: the
// one before the first key at or above it, or the very last one.
static void TSB(last)(TSB(cursor) *c)
{
#ifndef LEVELCORE_ROCKSDB
	if (c->upper != NULL) {
		LIB(iter_seek)(c->it, c->upper, c->upperlen);
		if (LIB(iter_valid)(c->it)) {
			LIB(iter_prev)(c->it);
			return;
		}
		// Past every key, or failed: only the former may fall back.
		LIB(iter_get_error)(c->it, &c->err);
		if (c->err != NULL)
			return;
	}
#endif
	LIB(iter_seek_to_last)(c->it);
}

// at reports whether the iterator rests on key k.
static int TSB(at)(TSB(cursor) *c, const char *k, size_t klen)
{
	if (!LIB(iter_valid)(c->it))
		return 0;
	size_t n;
	const char *key = LIB(iter_key)(c->it, &n);
	return TSB(compare)(key, n, k, klen) == 0;
}

// collect copies entries into the fill, moving forward or backward, until
// it is full, a bound or an end is reached, or the iterator fails. The
// iterator is left on the first entry not copied, where the next fill in
// the same direction starts.
static void TSB(collect)(TSB(cursor) *c, int forward)
{
	tsb_cursor_buf *b = &c->fill;
	while (LIB(iter_valid)(c->it)) {
		size_t klen, vlen;
		const char *k = LIB(iter_key)(c->it, &klen);
#ifndef LEVELCORE_ROCKSDB
		if (forward ? c->upper != NULL && TSB(compare)(k, klen, c->upper, c->upperlen) >= 0
			    : c->lower != NULL && TSB(compare)(k, klen, c->lower, c->lowerlen) < 0) {
			b->end = 1;
			return;
		}
#endif
		const char *v = LIB(iter_value)(c->it, &vlen);
		switch (tsb_cursor_add(b, k, klen, v, vlen)) {
		case 0:
			return;
		case -1:
			b->end = 1;
			c->err = strdup("iterator entry of 4 GiB or more");
			return;
		}
		if (forward)
			LIB(iter_next)(c->it);
		else
			LIB(iter_prev)(c->it);
	}
	b->end = 1;
	if (c->err == NULL)
		LIB(iter_get_error)(c->it, &c->err);
}

void TSB(cursor_fill)(TSB(cursor) *c, int op, const char *k, size_t klen,
		      char *buf, size_t cap)
{
	int limit = TSB_CURSOR_FIRST_ENTRIES;
	int forward = 1;
	switch (op) {
	case TSB_CURSOR_FIRST:
		if (c->lower != NULL)
			LIB(iter_seek)(c->it, c->lower, c->lowerlen);
		else
			LIB(iter_seek_to_first)(c->it);
		break;
	case TSB_CURSOR_LAST:
		TSB(last)(c);
		forward = 0;
		break;
	case TSB_CURSOR_SEEK:
		TSB(seek)(c, k, klen);
		break;
	case TSB_CURSOR_AFTER:
		TSB(seek)(c, k, klen);
		if (TSB(at)(c, k, klen))
			LIB(iter_next)(c->it);
		break;
	case TSB_CURSOR_BEFORE:
		TSB(seek)(c, k, klen);
		if (LIB(iter_valid)(c->it))
			LIB(iter_prev)(c->it);
		else
			TSB(last)(c);
		forward = 0;
		break;
	case TSB_CURSOR_NEXT:
	case TSB_CURSOR_PREV:
		limit = tsb_cursor_next_limit(c->fill.limit);
		forward = op == TSB_CURSOR_NEXT;
		break;
	}
	tsb_cursor_start(&c->fill, buf, cap, limit);
	if (c->err != NULL)
		c->fill.end = 1;
	else
		TSB(collect)(c, forward);
	c->fill.buf = NULL; // Go's memory, lent for this call only
}

TSB(value) TSB(get)(LIB(t) *db, const LIB(readoptions_t) *ro,
		    const char *k, size_t klen)
{
	TSB(value) r = {NULL, 0, NULL};
	r.val = LIB(get)(db, ro, k, klen, &r.vlen, &r.err);
	return r;
}

char *TSB(put)(LIB(t) *db, const LIB(writeoptions_t) *wo,
	       const char *k, size_t klen, const char *v, size_t vlen)
{
	char *err = NULL;
	LIB(put)(db, wo, k, klen, v, vlen, &err);
	return err;
}

char *TSB(delete)(LIB(t) *db, const LIB(writeoptions_t) *wo,
		  const char *k, size_t klen)
{
	char *err = NULL;
	LIB(delete)(db, wo, k, klen, &err);
	return err;
}

#ifdef LEVELCORE_ROCKSDB
char *TSB(write)(LIB(t) *db, const LIB(writeoptions_t) *wo,
		 const char *rep, size_t n)
{
	// RocksDB reads the encoding as is, in one copy.
	LIB(writebatch_t) *b = rocksdb_writebatch_create_from(rep, n);
	char *err = NULL;
	LIB(write)(db, wo, b, &err);
	LIB(writebatch_destroy)(b);
	return err;
}
#else
char *TSB(write)(LIB(t) *db, const LIB(writeoptions_t) *wo, LIB(writebatch_t) *b,
		 const char *rep, size_t n)
{
	const unsigned char *p = (const unsigned char *)rep + TSB_CBATCH_HEADER;
	const unsigned char *end = (const unsigned char *)rep + n;
	const char *k, *v = NULL;
	size_t klen, vlen = 0;
	int tag;
	while ((tag = tsb_cbatch_next(&p, end, &k, &klen, &v, &vlen)) >= 0) {
		if (tag == TSB_CBATCH_PUT)
			LIB(writebatch_put)(b, k, klen, v, vlen);
		else
			LIB(writebatch_delete)(b, k, klen);
	}
	char *err = NULL;
	LIB(write)(db, wo, b, &err);
	LIB(writebatch_clear)(b);
	return err;
}
#endif

#ifndef LEVELCORE_ROCKSDB
void TSB(flush_memtable)(LIB(t) *db)
{
	// The C API has no flush, but CompactRange always writes the memtable
	// out first. Given an inverted range (begin "\xff..." after end "") it
	// then finds no table to compact: a table would have to hold both the
	// empty key and a key of eight 0xff bytes or more.
	static const char begin[] = "\xff\xff\xff\xff\xff\xff\xff\xff";
	LIB(compact_range)(db, begin, sizeof begin - 1, "", 0);
}
#endif

#endif // LEVELCORE_IMPLEMENTATION

#endif
