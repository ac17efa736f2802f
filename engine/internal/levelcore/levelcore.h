// The C core of the LevelDB-family backends (leveldb, hyperleveldb,
// rocksdb), written once against the C API the three libraries share under
// different prefixes (leveldb_iter_seek, hyperleveldb_iter_seek,
// rocksdb_iter_seek, ...): a bulk iterator cursor, the point operations,
// the batch write and the size estimate.
//
// A backend's binding.h defines LEVELCORE_PREFIX as its library's prefix,
// includes the library's c.h, then this header; its binding.c defines
// LEVELCORE_IMPLEMENTATION and includes binding.h. Every name below is
// tsb_<prefix>_..., so the backends link into one binary side by side.
// LEVELCORE_ROCKSDB selects what RocksDB does differently: its iterators
// take bounds in their read options, which lets it skip whatever lies
// beyond them, its size estimate reports errors, and it has a flush of
// its own.
//
// Callers pass lengths and pointers from Go; a key may be NULL only with
// length 0.

#ifndef TSB_LEVELCORE_H
#define TSB_LEVELCORE_H

#include <stddef.h>
#include <stdint.h>

#include "cbatch/cbatch.h"
#include "cursor/cursor.h"

#define LEVELCORE_CAT_(a, b) a##b
#define LEVELCORE_CAT(a, b) LEVELCORE_CAT_(a, b)
// LIB(x) is the library's x, TSB(x) this core's.
#define LIB(x) LEVELCORE_CAT(LEVELCORE_PREFIX, LEVELCORE_CAT(_, x))
#define TSB(x) LEVELCORE_CAT(tsb_, LIB(x))

// The cursor: its last fill and the error that ended it, which Go reads
// after each tsb_*_cursor_fill, a library iterator and the bounds it keeps
// to. Go drives it through tsb_*_cursor_ops (cursor.NewC).
typedef struct {
	tsb_cursor_head h;
	LIB(iterator_t) *it;
	const char *lower; // NULL when unbounded; a copy in mem
	size_t lowerlen;
	const char *upper;
	size_t upperlen;
	char *mem; // the copies of the bounds: after the struct, or malloc'ed
	size_t memcap;
#ifdef LEVELCORE_ROCKSDB
	LIB(t) *db;
	LIB(readoptions_t) *ro; // the iterator's, which hold its bounds
	// rocksupper says RocksDB keeps the iterator to upper, which it was
	// made with; otherwise the cursor checks upper itself. RocksDB keeps it
	// to lower always: an unbounded lower is the empty key.
	int rocksupper;
#endif
} TSB(cursor);

// tsb_*_cursor_ops are the calls of cursor.h's tsb_cursor_ops on such a
// cursor: fill, bounds and free below, and the library's free for errors.
extern const tsb_cursor_ops TSB(cursor_ops);

#ifdef LEVELCORE_ROCKSDB
// tsb_*_cursor_new creates an iterator over db within [lower, upper),
// reading snap, or the database as it is now when snap is NULL; a bound
// with has* 0 is none. The bounds are copied. It returns NULL when memory
// runs out.
TSB(cursor) *TSB(cursor_new)(LIB(t) *db, const LIB(snapshot_t) *snap,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper);
#else
// tsb_*_cursor_new creates an iterator over db with ro (which may name a
// snapshot) within [lower, upper); a bound with has* 0 is none. The
// bounds are copied. It returns NULL when memory runs out.
TSB(cursor) *TSB(cursor_new)(LIB(t) *db, const LIB(readoptions_t) *ro,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper);
#endif

// tsb_*_cursor_bounds gives the cursor new bounds, copied, keeping its
// iterator and so its view: the next fill must position it (FIRST, LAST
// or SEEK). It returns 0, or -1 when memory runs out, leaving the bounds
// unchanged. RocksDB cannot drop an upper bound its iterator was made
// with, so then the iterator is made anew, reading the same snapshot if
// it had one and the database as it is now otherwise.
int TSB(cursor_bounds)(TSB(cursor) *c, const char *lower, size_t lowerlen, int haslower,
		       const char *upper, size_t upperlen, int hasupper);

// tsb_*_cursor_fill starts with op, a TSB_CURSOR_* of cursor.h, and fills
// cap bytes at buf, reporting in c->h.fill. k is the target of SEEK, AFTER
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

// TSB(size) is the result of tsb_*_approximate_size.
typedef struct {
	uint64_t size;
	char *err;
} TSB(size);

// tsb_*_approximate_size estimates the bytes the keys in [start, end)
// take in table files; an end with hasend 0 is none, and then the range
// ends just past the last key. RocksDB counts the memtables too, through
// cf, its default column family.
#ifdef LEVELCORE_ROCKSDB
TSB(size) TSB(approximate_size)(LIB(t) *db, LIB(column_family_handle_t) *cf,
				const char *start, size_t startlen,
				const char *end, size_t endlen, int hasend);
#else
TSB(size) TSB(approximate_size)(LIB(t) *db, const char *start, size_t startlen,
				const char *end, size_t endlen, int hasend);
#endif

#ifndef LEVELCORE_ROCKSDB
// tsb_*_flush_memtable writes the memtable to a table file.
void TSB(flush_memtable)(LIB(t) *db);

// tsb_*_stats returns the "leveldb.stats" property, freed with the
// library's free, or NULL.
char *TSB(stats)(LIB(t) *db);
#endif

#ifdef LEVELCORE_IMPLEMENTATION

#include <stdlib.h>
#include <string.h>

// LEVELCORE_INLINE_BOUNDS is the room for bounds a cursor is allocated
// with: a time-series query's two 24-byte keys fit, and larger bounds
// move to a buffer of their own.
enum { LEVELCORE_INLINE_BOUNDS = 64 };

static int TSB(compare)(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int r = n > 0 ? memcmp(a, b, n) : 0;
	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

// checks_lower and checks_upper report whether the cursor keeps to a
// bound itself, rather than the library iterator.
static inline int TSB(checks_lower)(const TSB(cursor) *c)
{
#ifdef LEVELCORE_ROCKSDB
	(void)c;
	return 0;
#else
	return c->lower != NULL;
#endif
}

static inline int TSB(checks_upper)(const TSB(cursor) *c)
{
#ifdef LEVELCORE_ROCKSDB
	return c->upper != NULL && !c->rocksupper;
#else
	return c->upper != NULL;
#endif
}

// copy_bounds stores copies of the bounds in c->mem, growing it if they
// do not fit; it returns -1, changing nothing, when memory runs out.
static int TSB(copy_bounds)(TSB(cursor) *c, const char *lower, size_t lowerlen, int haslower,
			    const char *upper, size_t upperlen, int hasupper)
{
	if (!haslower)
		lowerlen = 0;
	if (!hasupper)
		upperlen = 0;
	if (lowerlen + upperlen > c->memcap) {
		char *mem = malloc(lowerlen + upperlen);
		if (mem == NULL)
			return -1;
		if (c->mem != (char *)(c + 1))
			free(c->mem);
		c->mem = mem;
		c->memcap = lowerlen + upperlen;
	}
	c->lower = haslower ? memcpy(c->mem, lower, lowerlen) : NULL;
	c->lowerlen = lowerlen;
	c->upper = hasupper ? memcpy(c->mem + lowerlen, upper, upperlen) : NULL;
	c->upperlen = upperlen;
	return 0;
}

#ifdef LEVELCORE_ROCKSDB
TSB(cursor) *TSB(cursor_new)(LIB(t) *db, const LIB(snapshot_t) *snap,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper)
#else
TSB(cursor) *TSB(cursor_new)(LIB(t) *db, const LIB(readoptions_t) *ro,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper)
#endif
{
	// One allocation holds the cursor and room for its bounds.
	TSB(cursor) *c = calloc(1, sizeof(TSB(cursor)) + LEVELCORE_INLINE_BOUNDS);
	if (c == NULL)
		return NULL;
	c->mem = (char *)(c + 1);
	c->memcap = LEVELCORE_INLINE_BOUNDS;
	if (TSB(copy_bounds)(c, lower, lowerlen, haslower, upper, upperlen, hasupper) != 0) {
		free(c);
		return NULL;
	}
#ifdef LEVELCORE_ROCKSDB
	// The iterator reads its bounds through these options for its whole
	// life, and they point into the cursor's copies; RocksDB supports
	// changing them between seeks, which tsb_*_cursor_bounds does.
	c->db = db;
	c->ro = rocksdb_readoptions_create();
	if (snap != NULL)
		rocksdb_readoptions_set_snapshot(c->ro, snap);
	rocksdb_readoptions_set_iterate_lower_bound(c->ro, c->lower != NULL ? c->lower : c->mem, c->lowerlen);
	if (c->upper != NULL) {
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, c->upper, c->upperlen);
		c->rocksupper = 1;
	}
	c->it = LIB(create_iterator)(db, c->ro);
#else
	c->it = LIB(create_iterator)(db, ro);
#endif
	return c;
}

int TSB(cursor_bounds)(TSB(cursor) *c, const char *lower, size_t lowerlen, int haslower,
		       const char *upper, size_t upperlen, int hasupper)
{
	if (TSB(copy_bounds)(c, lower, lowerlen, haslower, upper, upperlen, hasupper) != 0)
		return -1;
#ifdef LEVELCORE_ROCKSDB
	rocksdb_readoptions_set_iterate_lower_bound(c->ro, c->lower != NULL ? c->lower : c->mem, c->lowerlen);
	if (c->rocksupper && c->upper == NULL) {
		// Setting NULL would reach only the options, not the iterator's
		// copy of them.
		rocksdb_iter_destroy(c->it);
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, NULL, 0);
		c->rocksupper = 0;
		c->it = rocksdb_create_iterator(c->db, c->ro);
	} else if (c->rocksupper) {
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, c->upper, c->upperlen);
	}
#endif
	return 0;
}

void TSB(cursor_free)(TSB(cursor) *c)
{
	// The iterator goes first: it may read the options and bounds.
	LIB(iter_destroy)(c->it);
#ifdef LEVELCORE_ROCKSDB
	rocksdb_readoptions_destroy(c->ro);
#endif
	if (c->mem != (char *)(c + 1))
		free(c->mem);
	LIB(free)(c->h.err);
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
	if (TSB(checks_upper)(c)) {
		LIB(iter_seek)(c->it, c->upper, c->upperlen);
		if (LIB(iter_valid)(c->it)) {
			LIB(iter_prev)(c->it);
			return;
		}
		// Past every key, or failed: only the former may fall back.
		LIB(iter_get_error)(c->it, &c->h.err);
		if (c->h.err != NULL)
			return;
	}
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
	tsb_cursor_buf *b = &c->h.fill;
	// The bound this direction stops at, when the cursor checks it.
	const char *bound = NULL;
	size_t boundlen = 0;
	if (forward && TSB(checks_upper)(c)) {
		bound = c->upper;
		boundlen = c->upperlen;
	} else if (!forward && TSB(checks_lower)(c)) {
		bound = c->lower;
		boundlen = c->lowerlen;
	}
	while (LIB(iter_valid)(c->it)) {
		size_t klen, vlen;
		const char *k = LIB(iter_key)(c->it, &klen);
		if (bound != NULL) {
			int r = TSB(compare)(k, klen, bound, boundlen);
			if (forward ? r >= 0 : r < 0) {
				b->end = 1;
				return;
			}
		}
		const char *v = LIB(iter_value)(c->it, &vlen);
		switch (tsb_cursor_add(b, k, klen, v, vlen)) {
		case 0:
			return;
		case -1:
			b->end = 1;
			c->h.err = strdup("iterator entry of 4 GiB or more");
			return;
		}
		if (forward)
			LIB(iter_next)(c->it);
		else
			LIB(iter_prev)(c->it);
	}
	b->end = 1;
	if (c->h.err == NULL)
		LIB(iter_get_error)(c->it, &c->h.err);
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
		limit = tsb_cursor_next_limit(c->h.fill.limit);
		forward = op == TSB_CURSOR_NEXT;
		break;
	}
	tsb_cursor_start(&c->h.fill, buf, cap, limit);
	if (c->h.err != NULL)
		c->h.fill.end = 1;
	else
		TSB(collect)(c, forward);
	c->h.fill.buf = NULL; // Go's memory, lent for this call only
}

// The entries of tsb_*_cursor_ops, which take the cursor as void *.
static void TSB(ops_fill)(void *c, int op, const char *k, size_t klen, char *buf, size_t cap)
{
	TSB(cursor_fill)(c, op, k, klen, buf, cap);
}

static int TSB(ops_bounds)(void *c, const char *lower, size_t lowerlen, int haslower,
			   const char *upper, size_t upperlen, int hasupper)
{
	return TSB(cursor_bounds)(c, lower, lowerlen, haslower, upper, upperlen, hasupper);
}

static void TSB(ops_release)(void *c)
{
	TSB(cursor_free)(c);
}

static void TSB(ops_free_err)(void *err)
{
	LIB(free)(err);
}

const tsb_cursor_ops TSB(cursor_ops) = {
	TSB(ops_fill),
	TSB(ops_bounds),
	TSB(ops_release),
	TSB(ops_free_err),
};

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

#ifdef LEVELCORE_ROCKSDB
TSB(size) TSB(approximate_size)(LIB(t) *db, LIB(column_family_handle_t) *cf,
				const char *start, size_t startlen,
				const char *end, size_t endlen, int hasend)
#else
TSB(size) TSB(approximate_size)(LIB(t) *db, const char *start, size_t startlen,
				const char *end, size_t endlen, int hasend)
#endif
{
	TSB(size) r = {0, NULL};
	char *limit = NULL; // the end just past the last key, when there is none
	if (!hasend) {
		// The libraries need an end.
		LIB(readoptions_t) *ro = LIB(readoptions_create)();
		LIB(iterator_t) *it = LIB(create_iterator)(db, ro);
		LIB(iter_seek_to_last)(it);
		int found = LIB(iter_valid)(it);
		if (found) {
			const char *k = LIB(iter_key)(it, &endlen);
			limit = malloc(endlen + 1);
			if (limit != NULL) {
				memcpy(limit, k, endlen);
				limit[endlen++] = 0;
			}
		}
		LIB(iter_get_error)(it, &r.err);
		LIB(iter_destroy)(it);
		LIB(readoptions_destroy)(ro);
		if (found && limit == NULL && r.err == NULL)
			r.err = strdup("out of memory for a size estimate");
		if (!found || r.err != NULL) {
			free(limit);
			return r; // an empty database, or a failure
		}
		end = limit;
	}
	if (TSB(compare)(start, startlen, end, endlen) < 0) {
#ifdef LEVELCORE_ROCKSDB
		rocksdb_approximate_sizes_cf_with_flags(db, cf, 1, &start, &startlen, &end, &endlen,
							rocksdb_size_approximation_flags_include_files |
								rocksdb_size_approximation_flags_include_memtable,
							&r.size, &r.err);
#else
		LIB(approximate_sizes)(db, 1, &start, &startlen, &end, &endlen, &r.size);
#endif
	}
	free(limit);
	return r;
}

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

char *TSB(stats)(LIB(t) *db)
{
	return LIB(property_value)(db, "leveldb.stats");
}
#endif

#endif // LEVELCORE_IMPLEMENTATION

#endif
