// The C core of the LevelDB-family backends (leveldb, hyperleveldb,
// rocksdb), written once against the C API the three libraries share under
// different prefixes (leveldb_iter_seek, hyperleveldb_iter_seek,
// rocksdb_iter_seek, ...): the table of calls of levelcore.h, with a bulk
// iterator cursor, the batch write and the size estimate behind it.
//
// A backend's binding.h defines LEVELCORE_PREFIX as its library's prefix,
// includes the library's c.h, then this header; its binding.c defines
// LEVELCORE_IMPLEMENTATION and includes binding.h. Every name below is
// tsb_<prefix>_..., so the backends link into one binary side by side.
// LEVELCORE_ROCKSDB selects what RocksDB does differently: its iterators
// take bounds in their read options, which lets it skip whatever lies
// beyond them; it reads a batch's encoding as is; its size estimate counts
// the memtables and reports errors; its block cache and filter belong to
// table options; and it has a flush and a range delete of its own.
// LEVELCORE_COMPACT_RANGE names the library's range compaction when it is
// not <prefix>_compact_range.

#ifndef TSB_LEVELCORE_LIBRARY_H
#define TSB_LEVELCORE_LIBRARY_H

#include "cbatch/cbatch.h"
#include "levelcore/levelcore.h"

#define LEVELCORE_CAT_(a, b) a##b
#define LEVELCORE_CAT(a, b) LEVELCORE_CAT_(a, b)
// LIB(x) is the library's x, TSB(x) this core's.
#define LIB(x) LEVELCORE_CAT(LEVELCORE_PREFIX, LEVELCORE_CAT(_, x))
#define TSB(x) LEVELCORE_CAT(tsb_, LIB(x))

// tsb_*_ops is the library's table of calls (levelcore.h).
extern const levelcore_ops TSB(ops);

// tsb_*_options are what the table's options call makes: the options open
// takes, which a backend may change further before it opens, and what
// they refer to.
typedef struct {
	LIB(options_t) *opts;
	LIB(cache_t) *cache;
#ifdef LEVELCORE_ROCKSDB
	rocksdb_block_based_table_options_t *table; // owns the filter
#else
	LIB(filterpolicy_t) *filter; // NULL without a bloom filter
#endif
} TSB(options);

#ifdef LEVELCORE_IMPLEMENTATION

#include <stdlib.h>
#include <string.h>

// The cursor: its last fill and the error that ended it, which Go reads
// after each fill, a library iterator and the bounds it keeps to.
typedef struct {
	tsb_cursor_head h;
	LIB(iterator_t) *it;
	tsb_cursor_bounds b;
#ifdef LEVELCORE_ROCKSDB
	LIB(t) *db;
	LIB(readoptions_t) *ro; // the iterator's, which hold its bounds
	// rocksupper says RocksDB keeps the iterator to the upper bound, which
	// it was made with; otherwise the cursor checks it itself. RocksDB
	// keeps it to the lower bound always: an unbounded lower is the empty
	// key.
	int rocksupper;
#endif
} TSB(cursor);

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
	return c->b.lower != NULL;
#endif
}

static inline int TSB(checks_upper)(const TSB(cursor) *c)
{
#ifdef LEVELCORE_ROCKSDB
	return c->b.upper != NULL && !c->rocksupper;
#else
	return c->b.upper != NULL;
#endif
}

static void *TSB(cursor_new)(void *db, const void *ro, const void *snap,
			     const char *lower, size_t lowerlen, int haslower,
			     const char *upper, size_t upperlen, int hasupper)
{
	// One allocation holds the cursor and room for its bounds.
	TSB(cursor) *c = calloc(1, sizeof(TSB(cursor)) + TSB_CURSOR_ROOM);
	if (c == NULL)
		return NULL;
	tsb_cursor_bounds_init(&c->b, (char *)(c + 1));
	if (tsb_cursor_bounds_set(&c->b, lower, lowerlen, haslower, upper, upperlen, hasupper) != 0) {
		free(c);
		return NULL;
	}
#ifdef LEVELCORE_ROCKSDB
	// The iterator reads its bounds through these options for its whole
	// life, and they point into the cursor's copies; RocksDB supports
	// changing them between seeks, which the bounds call does.
	(void)ro;
	c->db = db;
	c->ro = rocksdb_readoptions_create();
	if (snap != NULL)
		rocksdb_readoptions_set_snapshot(c->ro, snap);
	rocksdb_readoptions_set_iterate_lower_bound(c->ro, c->b.lower != NULL ? c->b.lower : c->b.mem, c->b.lowerlen);
	if (c->b.upper != NULL) {
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, c->b.upper, c->b.upperlen);
		c->rocksupper = 1;
	}
	c->it = LIB(create_iterator)(db, c->ro);
#else
	(void)snap; // ro names it
	c->it = LIB(create_iterator)(db, ro);
#endif
	return c;
}

// cursor_bounds gives the cursor new bounds, copied, keeping its iterator
// and so its view: the next fill must position it (FIRST, LAST or SEEK).
// It returns 0, or -1 when memory runs out, leaving the bounds unchanged.
// RocksDB cannot drop an upper bound its iterator was made with, so then
// the iterator is made anew, reading the same snapshot if it had one and
// the database as it is now otherwise.
static int TSB(cursor_bounds)(void *cursor, const char *lower, size_t lowerlen, int haslower,
			      const char *upper, size_t upperlen, int hasupper)
{
	TSB(cursor) *c = cursor;
	if (tsb_cursor_bounds_set(&c->b, lower, lowerlen, haslower, upper, upperlen, hasupper) != 0)
		return -1;
#ifdef LEVELCORE_ROCKSDB
	rocksdb_readoptions_set_iterate_lower_bound(c->ro, c->b.lower != NULL ? c->b.lower : c->b.mem, c->b.lowerlen);
	if (c->rocksupper && c->b.upper == NULL) {
		// Setting NULL would reach only the options, not the iterator's
		// copy of them.
		rocksdb_iter_destroy(c->it);
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, NULL, 0);
		c->rocksupper = 0;
		c->it = rocksdb_create_iterator(c->db, c->ro);
	} else if (c->rocksupper) {
		rocksdb_readoptions_set_iterate_upper_bound(c->ro, c->b.upper, c->b.upperlen);
	}
#endif
	return 0;
}

static void TSB(cursor_free)(void *cursor)
{
	TSB(cursor) *c = cursor;
	// The iterator goes first: it may read the options and bounds.
	LIB(iter_destroy)(c->it);
#ifdef LEVELCORE_ROCKSDB
	rocksdb_readoptions_destroy(c->ro);
#endif
	tsb_cursor_bounds_free(&c->b);
	LIB(free)(c->h.err);
	free(c);
}

// seek positions the iterator on the first key >= k within bounds.
static void TSB(seek)(TSB(cursor) *c, const char *k, size_t klen)
{
	if (c->b.lower != NULL && TSB(compare)(k, klen, c->b.lower, c->b.lowerlen) < 0) {
		k = c->b.lower;
		klen = c->b.lowerlen;
	}
	LIB(iter_seek)(c->it, k, klen);
}

// last positions the iterator on the last key below the upper bound: the
// one before the first key at or above it, or the very last one.
static void TSB(last)(TSB(cursor) *c)
{
	if (TSB(checks_upper)(c)) {
		LIB(iter_seek)(c->it, c->b.upper, c->b.upperlen);
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
		bound = c->b.upper;
		boundlen = c->b.upperlen;
	} else if (!forward && TSB(checks_lower)(c)) {
		bound = c->b.lower;
		boundlen = c->b.lowerlen;
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

// cursor_fill starts with op, a TSB_CURSOR_* of cursor.h, and fills cap
// bytes at buf with at most limit entries (0: the ramp's), reporting in
// c->h.fill. k is the target of SEEK, AFTER and BEFORE; it may point
// into buf, which is written only once the iterator is positioned.
static void TSB(cursor_fill)(void *cursor, int op, const char *k, size_t klen,
			     char *buf, size_t cap, int limit)
{
	TSB(cursor) *c = cursor;
	int forward = 1;
	switch (op) {
	case TSB_CURSOR_FIRST:
		if (c->b.lower != NULL)
			LIB(iter_seek)(c->it, c->b.lower, c->b.lowerlen);
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
		forward = op == TSB_CURSOR_NEXT;
		break;
	}
	tsb_cursor_start(&c->h.fill, buf, cap, tsb_cursor_limit(op, c->h.fill.limit, limit));
	if (c->h.err != NULL)
		c->h.fill.end = 1;
	else
		TSB(collect)(c, forward);
	c->h.fill.buf = NULL; // Go's memory, lent for this call only
}

static void TSB(free_any)(void *p)
{
	LIB(free)(p);
}

static const tsb_cursor_ops TSB(cursor_ops) = {
	TSB(cursor_fill),
	TSB(cursor_bounds),
	TSB(cursor_free),
	TSB(free_any),
};

static void *TSB(options_new)(const levelcore_config *cfg)
{
	TSB(options) *o = calloc(1, sizeof *o);
	if (o == NULL)
		return NULL;
	o->opts = LIB(options_create)();
	o->cache = LIB(cache_create_lru)(cfg->cache_size);
	LIB(options_set_create_if_missing)(o->opts, 1);
	LIB(options_set_write_buffer_size)(o->opts, cfg->write_buffer_size);
	LIB(options_set_max_open_files)(o->opts, cfg->max_open_files);
	LIB(options_set_compression)(o->opts, cfg->compress ? LIB(snappy_compression) : LIB(no_compression));
#ifdef LEVELCORE_ROCKSDB
	o->table = rocksdb_block_based_options_create();
	rocksdb_block_based_options_set_block_cache(o->table, o->cache);
	rocksdb_block_based_options_set_block_size(o->table, cfg->block_size);
	if (cfg->bloom_bits > 0)
		rocksdb_block_based_options_set_filter_policy(o->table,
							      rocksdb_filterpolicy_create_bloom_full(cfg->bloom_bits));
	// The options keep a copy of the table options.
	rocksdb_options_set_block_based_table_factory(o->opts, o->table);
#else
	LIB(options_set_cache)(o->opts, o->cache);
	LIB(options_set_block_size)(o->opts, cfg->block_size);
	if (cfg->bloom_bits > 0) {
		o->filter = LIB(filterpolicy_create_bloom)(cfg->bloom_bits);
		LIB(options_set_filter_policy)(o->opts, o->filter);
	}
#endif
	return o;
}

static void TSB(options_free)(void *options)
{
	TSB(options) *o = options;
	LIB(options_destroy)(o->opts);
#ifdef LEVELCORE_ROCKSDB
	rocksdb_block_based_options_destroy(o->table);
#else
	if (o->filter != NULL)
		LIB(filterpolicy_destroy)(o->filter);
#endif
	LIB(cache_destroy)(o->cache);
	free(o);
}

static void *TSB(open)(void *options, const char *dir, char **err)
{
	return LIB(open)(((TSB(options) *)options)->opts, dir, err);
}

static void TSB(close)(void *db)
{
	LIB(close)(db);
}

static void *TSB(readoptions)(const void *snap, int verify)
{
	LIB(readoptions_t) *ro = LIB(readoptions_create)();
	LIB(readoptions_set_verify_checksums)(ro, verify);
	if (snap != NULL)
		LIB(readoptions_set_snapshot)(ro, snap);
	return ro;
}

static void TSB(readoptions_free)(void *ro)
{
	LIB(readoptions_destroy)(ro);
}

static void *TSB(writeoptions)(int sync)
{
	LIB(writeoptions_t) *wo = LIB(writeoptions_create)();
	LIB(writeoptions_set_sync)(wo, sync);
	return wo;
}

static void TSB(writeoptions_free)(void *wo)
{
	LIB(writeoptions_destroy)(wo);
}

static void *TSB(snapshot)(void *db)
{
	return (void *)LIB(create_snapshot)(db);
}

static void TSB(snapshot_free)(void *db, void *snap)
{
	LIB(release_snapshot)(db, snap);
}

static levelcore_value TSB(get)(void *db, const void *ro, const char *k, size_t klen)
{
	levelcore_value r = {NULL, 0, NULL};
	r.val = LIB(get)(db, ro, k, klen, &r.vlen, &r.err);
	return r;
}

static char *TSB(put)(void *db, const void *wo, const char *k, size_t klen,
		      const char *v, size_t vlen)
{
	char *err = NULL;
	LIB(put)(db, wo, k, klen, v, vlen, &err);
	return err;
}

static char *TSB(delete)(void *db, const void *wo, const char *k, size_t klen)
{
	char *err = NULL;
	LIB(delete)(db, wo, k, klen, &err);
	return err;
}

#ifdef LEVELCORE_ROCKSDB
static char *TSB(write)(void *db, const void *wo, void *wb, const char *rep, size_t n)
{
	// RocksDB reads the encoding as is, in one copy.
	(void)wb;
	LIB(writebatch_t) *b = rocksdb_writebatch_create_from(rep, n);
	char *err = NULL;
	LIB(write)(db, wo, b, &err);
	LIB(writebatch_destroy)(b);
	return err;
}

static char *TSB(delete_range)(void *db, const void *wo, const char *start, size_t startlen,
			       const char *end, size_t endlen)
{
	LIB(writebatch_t) *b = rocksdb_writebatch_create();
	rocksdb_writebatch_delete_range(b, start, startlen, end, endlen);
	char *err = NULL;
	LIB(write)(db, wo, b, &err);
	LIB(writebatch_destroy)(b);
	return err;
}
#else
static char *TSB(write)(void *db, const void *wo, void *wb, const char *rep, size_t n)
{
	const unsigned char *p = (const unsigned char *)rep + TSB_CBATCH_HEADER;
	const unsigned char *end = (const unsigned char *)rep + n;
	const char *k, *v = NULL;
	size_t klen, vlen = 0;
	int tag;
	while ((tag = tsb_cbatch_next(&p, end, &k, &klen, &v, &vlen)) >= 0) {
		if (tag == TSB_CBATCH_PUT)
			LIB(writebatch_put)(wb, k, klen, v, vlen);
		else
			LIB(writebatch_delete)(wb, k, klen);
	}
	char *err = NULL;
	LIB(write)(db, wo, wb, &err);
	LIB(writebatch_clear)(wb);
	return err;
}

static void *TSB(batch)(void)
{
	return LIB(writebatch_create)();
}

static void TSB(batch_free)(void *wb)
{
	LIB(writebatch_destroy)(wb);
}
#endif

static levelcore_size TSB(size)(void *db, const char *start, size_t startlen,
				const char *end, size_t endlen, int hasend)
{
	levelcore_size r = {0, NULL};
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
		// The memtables count too, through the default column family.
		rocksdb_column_family_handle_t *cf = rocksdb_get_default_column_family_handle(db);
		rocksdb_approximate_sizes_cf_with_flags(db, cf, 1, &start, &startlen, &end, &endlen,
							rocksdb_size_approximation_flags_include_files |
								rocksdb_size_approximation_flags_include_memtable,
							&r.size, &r.err);
		rocksdb_column_family_handle_destroy(cf);
#else
		LIB(approximate_sizes)(db, 1, &start, &startlen, &end, &endlen, &r.size);
#endif
	}
	free(limit);
	return r;
}

#ifdef LEVELCORE_ROCKSDB
static char *TSB(flush)(void *db)
{
	rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
	rocksdb_flushoptions_set_wait(fo, 1);
	char *err = NULL;
	rocksdb_flush(db, fo, &err);
	rocksdb_flushoptions_destroy(fo);
	return err;
}

// bottommost_force_optimized is BottommostLevelCompaction::kForceOptimized:
// compact the last level too, without rewriting files the compaction just
// wrote there.
enum { TSB(bottommost_force_optimized) = 3 };

static char *TSB(compact)(void *db, const char *start, size_t startlen,
			  const char *end, size_t endlen)
{
	// CompactRange leaves the memtables alone.
	char *err = TSB(flush)(db);
	if (err != NULL)
		return err;
	rocksdb_compactoptions_t *co = rocksdb_compactoptions_create();
	rocksdb_compactoptions_set_bottommost_level_compaction(co, TSB(bottommost_force_optimized));
	rocksdb_compact_range_opt(db, co, start, startlen, end, endlen);
	rocksdb_compactoptions_destroy(co);
	return NULL;
}
#else
static char *TSB(flush)(void *db)
{
	// The C API has no flush, but CompactRange always writes the memtable
	// out first. Given an inverted range (begin "\xff..." after end "") it
	// then finds no table to compact: a table would have to hold both the
	// empty key and a key of eight 0xff bytes or more.
	static const char begin[] = "\xff\xff\xff\xff\xff\xff\xff\xff";
	LIB(compact_range)(db, begin, sizeof begin - 1, "", 0);
	return NULL;
}

#ifndef LEVELCORE_COMPACT_RANGE
#define LEVELCORE_COMPACT_RANGE LIB(compact_range)
#endif

static char *TSB(compact)(void *db, const char *start, size_t startlen,
			  const char *end, size_t endlen)
{
	// CompactRange writes the memtable out first.
	LEVELCORE_COMPACT_RANGE(db, start, startlen, end, endlen);
	return NULL;
}
#endif

static char *TSB(property)(void *db, const char *name)
{
	return LIB(property_value)(db, name);
}

const levelcore_ops TSB(ops) = {
	.options = TSB(options_new),
	.options_free = TSB(options_free),
	.open = TSB(open),
	.close = TSB(close),
	.readoptions = TSB(readoptions),
	.readoptions_free = TSB(readoptions_free),
	.writeoptions = TSB(writeoptions),
	.writeoptions_free = TSB(writeoptions_free),
	.snapshot = TSB(snapshot),
	.snapshot_free = TSB(snapshot_free),
	.get = TSB(get),
	.put = TSB(put),
	.del = TSB(delete),
	.write = TSB(write),
#ifdef LEVELCORE_ROCKSDB
	.delete_range = TSB(delete_range),
#else
	.batch = TSB(batch),
	.batch_free = TSB(batch_free),
#endif
	.cursor = TSB(cursor_new),
	.cursor_ops = &TSB(cursor_ops),
	.size = TSB(size),
	.compact = TSB(compact),
	.flush = TSB(flush),
	.property = TSB(property),
	.free = TSB(free_any),
};

#endif // LEVELCORE_IMPLEMENTATION

#endif
