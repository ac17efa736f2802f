#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

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

hl_cursor *hl_cursor_new(hyperleveldb_t *db, const hyperleveldb_readoptions_t *ro,
			 const char *lower, size_t lowerlen, int haslower,
			 const char *upper, size_t upperlen, int hasupper)
{
	hl_cursor *c = calloc(1, sizeof *c);
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
		hl_cursor_free(c);
		return NULL;
	}
	c->it = hyperleveldb_create_iterator(db, ro);
	return c;
}

void hl_cursor_free(hl_cursor *c)
{
	if (c->it != NULL)
		hyperleveldb_iter_destroy(c->it);
	free(c->lower);
	free(c->upper);
	free(c->err);
	free(c);
}

// settle records the entry the iterator rests on and reports whether it is
// within bounds. An invalid iterator may carry an error.
static int settle(hl_cursor *c)
{
	if (!hyperleveldb_iter_valid(c->it)) {
		hyperleveldb_iter_get_error(c->it, &c->err);
		return 0;
	}
	c->key = hyperleveldb_iter_key(c->it, &c->klen);
	if (c->upper != NULL &&
	    compare(c->key, c->klen, c->upper, c->upperlen) >= 0)
		return 0;
	if (c->lower != NULL &&
	    compare(c->key, c->klen, c->lower, c->lowerlen) < 0)
		return 0;
	c->val = hyperleveldb_iter_value(c->it, &c->vlen);
	return 1;
}

int hl_cursor_move(hl_cursor *c, int op, const char *k, size_t klen)
{
	switch (op) {
	case HL_FIRST:
		if (c->lower != NULL)
			hyperleveldb_iter_seek(c->it, c->lower, c->lowerlen);
		else
			hyperleveldb_iter_seek_to_first(c->it);
		break;
	case HL_LAST:
		// The last key below the upper bound is the one before the
		// first key at or above it.
		if (c->upper == NULL) {
			hyperleveldb_iter_seek_to_last(c->it);
			break;
		}
		hyperleveldb_iter_seek(c->it, c->upper, c->upperlen);
		if (hyperleveldb_iter_valid(c->it)) {
			hyperleveldb_iter_prev(c->it);
			break;
		}
		// Past every key, or failed: only the former may fall back.
		hyperleveldb_iter_get_error(c->it, &c->err);
		if (c->err != NULL)
			return 0;
		hyperleveldb_iter_seek_to_last(c->it);
		break;
	case HL_SEEK:
		if (c->lower != NULL &&
		    compare(k, klen, c->lower, c->lowerlen) < 0) {
			k = c->lower;
			klen = c->lowerlen;
		}
		hyperleveldb_iter_seek(c->it, k, klen);
		break;
	case HL_NEXT:
		hyperleveldb_iter_next(c->it);
		break;
	case HL_PREV:
		hyperleveldb_iter_prev(c->it);
		break;
	}
	return settle(c);
}

hl_value hl_get(hyperleveldb_t *db, const hyperleveldb_readoptions_t *ro,
		const char *k, size_t klen)
{
	hl_value r = {NULL, 0, NULL};
	r.val = hyperleveldb_get(db, ro, k, klen, &r.vlen, &r.err);
	return r;
}

char *hl_put(hyperleveldb_t *db, const hyperleveldb_writeoptions_t *wo,
	     const char *k, size_t klen, const char *v, size_t vlen)
{
	char *err = NULL;
	hyperleveldb_put(db, wo, k, klen, v, vlen, &err);
	return err;
}

char *hl_delete(hyperleveldb_t *db, const hyperleveldb_writeoptions_t *wo,
		const char *k, size_t klen)
{
	char *err = NULL;
	hyperleveldb_delete(db, wo, k, klen, &err);
	return err;
}

static uint32_t length(const char **p)
{
	uint32_t n;
	memcpy(&n, *p, sizeof n);
	*p += sizeof n;
	return n;
}

char *hl_write(hyperleveldb_t *db, const hyperleveldb_writeoptions_t *wo,
	       const char *rep, size_t n)
{
	const char *p = rep, *end = rep + n;
	hyperleveldb_writebatch_t *b = hyperleveldb_writebatch_create();
	while (p < end) {
		char tag = *p++;
		uint32_t klen = length(&p);
		const char *key = p;
		p += klen;
		if (tag == 0) {
			hyperleveldb_writebatch_delete(b, key, klen);
			continue;
		}
		uint32_t vlen = length(&p);
		hyperleveldb_writebatch_put(b, key, klen, p, vlen);
		p += vlen;
	}
	char *err = NULL;
	hyperleveldb_write(db, wo, b, &err);
	hyperleveldb_writebatch_destroy(b);
	return err;
}

void hl_flush_memtable(hyperleveldb_t *db)
{
	// The C API has no flush, but CompactRange always writes the memtable
	// out first. Given an inverted range (begin "\xff..." after end "") it
	// then finds no table to compact: a table would have to hold both the
	// empty key and a key of eight 0xff bytes or more.
	static const char begin[] = "\xff\xff\xff\xff\xff\xff\xff\xff";
	hyperleveldb_compact_range(db, begin, sizeof begin - 1, "", 0);
}
