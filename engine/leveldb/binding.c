#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "binding.h"

static int compare(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int r = n > 0 ? memcmp(a, b, n) : 0;
	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

static char *copy(const char *p, size_t n)
{
	char *d = malloc(n > 0 ? n : 1);
	if (d != NULL && n > 0)
		memcpy(d, p, n);
	return d;
}

tsb_leveldb_cursor *tsb_leveldb_cursor_new(
	leveldb_t *db, const leveldb_readoptions_t *ro,
	const char *lower, size_t lowerlen, int haslower,
	const char *upper, size_t upperlen, int hasupper)
{
	tsb_leveldb_cursor *c = calloc(1, sizeof *c);
	if (c == NULL)
		return NULL;
	if (haslower) {
		c->lower = copy(lower, lowerlen);
		c->lowerlen = lowerlen;
	}
	if (hasupper) {
		c->upper = copy(upper, upperlen);
		c->upperlen = upperlen;
	}
	if ((haslower && c->lower == NULL) || (hasupper && c->upper == NULL)) {
		tsb_leveldb_cursor_free(c);
		return NULL;
	}
	c->it = leveldb_create_iterator(db, ro);
	return c;
}

void tsb_leveldb_cursor_free(tsb_leveldb_cursor *c)
{
	if (c->it != NULL)
		leveldb_iter_destroy(c->it);
	free(c->lower);
	free(c->upper);
	free(c->err);
	free(c);
}

// settle records the entry the iterator rests on and reports whether it is
// within bounds. An invalid iterator may carry an error.
static int settle(tsb_leveldb_cursor *c)
{
	if (!leveldb_iter_valid(c->it)) {
		leveldb_iter_get_error(c->it, &c->err);
		return 0;
	}
	c->key = leveldb_iter_key(c->it, &c->klen);
	if (c->upper != NULL &&
	    compare(c->key, c->klen, c->upper, c->upperlen) >= 0)
		return 0;
	if (c->lower != NULL &&
	    compare(c->key, c->klen, c->lower, c->lowerlen) < 0)
		return 0;
	c->val = leveldb_iter_value(c->it, &c->vlen);
	return 1;
}

int tsb_leveldb_cursor_move(tsb_leveldb_cursor *c, int op,
			    const char *k, size_t klen)
{
	switch (op) {
	case TSB_LEVELDB_FIRST:
		if (c->lower != NULL)
			leveldb_iter_seek(c->it, c->lower, c->lowerlen);
		else
			leveldb_iter_seek_to_first(c->it);
		break;
	case TSB_LEVELDB_LAST:
		// The last key below the upper bound is the one before the
		// first key at or above it.
		if (c->upper == NULL) {
			leveldb_iter_seek_to_last(c->it);
			break;
		}
		leveldb_iter_seek(c->it, c->upper, c->upperlen);
		if (leveldb_iter_valid(c->it))
			leveldb_iter_prev(c->it);
		else
			leveldb_iter_seek_to_last(c->it);
		break;
	case TSB_LEVELDB_SEEK:
		if (c->lower != NULL &&
		    compare(k, klen, c->lower, c->lowerlen) < 0) {
			k = c->lower;
			klen = c->lowerlen;
		}
		leveldb_iter_seek(c->it, k, klen);
		break;
	case TSB_LEVELDB_NEXT:
		leveldb_iter_next(c->it);
		break;
	case TSB_LEVELDB_PREV:
		leveldb_iter_prev(c->it);
		break;
	}
	return settle(c);
}

static uint32_t length(const char **p)
{
	uint32_t n;
	memcpy(&n, *p, sizeof n);
	*p += sizeof n;
	return n;
}

char *tsb_leveldb_write(leveldb_t *db, const leveldb_writeoptions_t *wo,
			const char *rep, size_t n)
{
	const char *p = rep, *end = rep + n;
	leveldb_writebatch_t *b = leveldb_writebatch_create();
	while (p < end) {
		char tag = *p++;
		uint32_t klen = length(&p);
		const char *key = p;
		p += klen;
		if (tag == TSB_LEVELDB_DELETE) {
			leveldb_writebatch_delete(b, key, klen);
			continue;
		}
		uint32_t vlen = length(&p);
		leveldb_writebatch_put(b, key, klen, p, vlen);
		p += vlen;
	}
	char *err = NULL;
	leveldb_write(db, wo, b, &err);
	leveldb_writebatch_destroy(b);
	return err;
}

void tsb_leveldb_flush_memtable(leveldb_t *db)
{
	// LevelDB has no flush call, but CompactRange always writes the
	// memtable out first. Given an inverted range (begin "\xff..." after
	// end "") it then finds no table to compact: a table would have to
	// hold both the empty key and a key of eight 0xff bytes or more.
	static const char begin[] = "\xff\xff\xff\xff\xff\xff\xff\xff";
	leveldb_compact_range(db, begin, sizeof begin - 1, "", 0);
}
