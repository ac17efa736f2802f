// The C side of package cursor: a buffer that a C iterator fills with many
// entries per cgo call, the operations a fill starts with, and the copies
// of the bounds a cursor keeps to. Go walks the buffer (cursor.go);
// engine/internal/levelcore fills it from a LevelDB-style iterator and
// engine/lmdb from an LMDB cursor.
//
// A fill holds entries back to back, in the order of its direction
// (descending after TSB_CURSOR_LAST, _PREV and _BEFORE), each as
//
//	uint32 key length, uint32 value length (native byte order), key, value

#ifndef TSB_CURSOR_H
#define TSB_CURSOR_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// What a fill starts with. The first five position the iterator anew:
// FIRST, LAST and SEEK as engine.Iterator's, AFTER on the first key past
// the given one, BEFORE on the last key before it. NEXT and PREV go on from
// where the previous fill in that direction stopped.
enum {
	TSB_CURSOR_FIRST,
	TSB_CURSOR_LAST,
	TSB_CURSOR_SEEK,
	TSB_CURSOR_AFTER,
	TSB_CURSOR_BEFORE,
	TSB_CURSOR_NEXT,
	TSB_CURSOR_PREV,
};

// A fill stops when its buffer is full, or sooner at its entry limit. The
// first fill after positioning takes at most TSB_CURSOR_FIRST_ENTRIES and
// each following one TSB_CURSOR_RAMP times more: a Seek that reads a few
// entries copies a few, and a long scan soon crosses cgo once per buffer.
// A caller that knows how many entries it wants gives that limit instead
// (a fill's limit argument above 0). An entry too large for an empty
// buffer is left for the next fill, into a buffer of the size set in need.
enum {
	TSB_CURSOR_FIRST_ENTRIES = 16,
	TSB_CURSOR_RAMP = 16,
	TSB_CURSOR_HEADER = 8,
};

// tsb_cursor_buf is a fill into buf, cap bytes of Go memory that Go lends
// for the call: buf[0:len] holds the entries. end is set when the iterator
// has no entry beyond them in the fill's direction (an end of the data or
// a bound was reached, or the iterator failed).
typedef struct {
	char *buf;
	size_t cap;
	size_t len;
	size_t need;
	int end;
	int entries; // in this fill
	int limit;   // entries this fill may take
} tsb_cursor_buf;

// tsb_cursor_head starts every cursor that package cursor drives through
// tsb_cursor_ops (its NewC): the last fill, and the error that ended it.
typedef struct {
	tsb_cursor_buf fill;
	char *err; // set when the iterator failed; Go frees it with free_err
} tsb_cursor_head;

// tsb_cursor_ops are the calls of such a cursor, c pointing to its head:
// fill starts with op and fills cap bytes at buf (see levelcore.h) with
// at most limit entries, or as many as the ramp allows when limit is 0,
// bounds gives it new bounds (has* 0: none) and returns -1 when memory
// runs out, release frees it, and free_err frees head.err.
typedef struct {
	void (*fill)(void *c, int op, const char *k, size_t klen, char *buf, size_t cap, int limit);
	int (*bounds)(void *c, const char *lower, size_t lowerlen, int haslower,
		      const char *upper, size_t upperlen, int hasupper);
	void (*release)(void *c);
	void (*free_err)(void *err);
} tsb_cursor_ops;

// tsb_cursor_start empties b for a fill of at most limit entries into
// cap bytes at buf.
static inline void tsb_cursor_start(tsb_cursor_buf *b, char *buf, size_t cap, int limit)
{
	b->buf = buf;
	b->cap = cap;
	b->len = 0;
	b->need = 0;
	b->end = 0;
	b->entries = 0;
	b->limit = limit;
}

// tsb_cursor_limit is the entry limit of a fill that starts with op,
// after one of prev: asked, the caller's, when it gave one (above 0), and
// otherwise the ramp's.
static inline int tsb_cursor_limit(int op, int prev, int asked)
{
	if (asked > 0)
		return asked;
	if (op != TSB_CURSOR_NEXT && op != TSB_CURSOR_PREV)
		return TSB_CURSOR_FIRST_ENTRIES;
	return prev > INT32_MAX / TSB_CURSOR_RAMP ? prev : prev * TSB_CURSOR_RAMP;
}

// tsb_cursor_copy is memcpy for the short keys and values most entries
// have, without the call: two copies of a fixed size, overlapping in the
// middle, which the compiler turns into a load and a store each and which
// read and write only the n bytes.
static inline void tsb_cursor_copy(char *d, const char *s, size_t n)
{
	if (n >= 16 && n <= 32) {
		memcpy(d, s, 16);
		memcpy(d + n - 16, s + n - 16, 16);
	} else if (n >= 8 && n < 16) {
		memcpy(d, s, 8);
		memcpy(d + n - 8, s + n - 8, 8);
	} else if (n >= 4 && n < 8) {
		memcpy(d, s, 4);
		memcpy(d + n - 4, s + n - 4, 4);
	} else {
		memcpy(d, s, n);
	}
}

// tsb_cursor_reserve makes room in the fill for an entry of klen and vlen
// bytes and writes its header. It returns 1 with *at where the key goes,
// the value following it; 0 if the fill is full (the entry belongs to the
// next one; need is set if the buffer is empty); -1 if a length does not
// fit the header (4 GiB or more, which no batch writes).
static inline int tsb_cursor_reserve(tsb_cursor_buf *b, size_t klen, size_t vlen, char **at)
{
	if (klen > UINT32_MAX || vlen > UINT32_MAX)
		return -1;
	size_t size = TSB_CURSOR_HEADER + klen + vlen;
	if (b->entries >= b->limit || b->len + size > b->cap) {
		if (b->entries == 0)
			b->need = size;
		return 0;
	}
	uint32_t h[2] = {(uint32_t)klen, (uint32_t)vlen};
	char *d = b->buf + b->len;
	memcpy(d, h, sizeof h);
	*at = d + TSB_CURSOR_HEADER;
	b->len += size;
	b->entries++;
	return 1;
}

// tsb_cursor_add appends an entry, returning what tsb_cursor_reserve does.
static inline int tsb_cursor_add(tsb_cursor_buf *b, const char *k, size_t klen,
				 const char *v, size_t vlen)
{
	char *d;
	int r = tsb_cursor_reserve(b, klen, vlen, &d);
	if (r == 1) {
		tsb_cursor_copy(d, k, klen);
		tsb_cursor_copy(d + klen, v, vlen);
	}
	return r;
}

// TSB_CURSOR_ROOM is the room for bounds a cursor is allocated with: a
// time-series query's two 24-byte keys fit, and larger bounds move to a
// buffer of their own.
enum { TSB_CURSOR_ROOM = 64 };

// tsb_cursor_bounds are a cursor's bounds, copies of the caller's: lower
// and upper are NULL when unbounded. The copies live in room, the
// TSB_CURSOR_ROOM bytes the cursor was allocated with, or in mem, a
// buffer of their own once they outgrow it.
typedef struct {
	const char *lower;
	size_t lowerlen;
	const char *upper;
	size_t upperlen;
	char *mem;
	size_t memcap;
	char *room;
} tsb_cursor_bounds;

// tsb_cursor_bounds_init makes b unbounded, its copies to go in room.
static inline void tsb_cursor_bounds_init(tsb_cursor_bounds *b, char *room)
{
	memset(b, 0, sizeof *b);
	b->mem = b->room = room;
	b->memcap = TSB_CURSOR_ROOM;
}

// tsb_cursor_bounds_set stores copies of the bounds, a bound with has* 0
// being none. It returns 0, or -1 when memory runs out, changing nothing.
static inline int tsb_cursor_bounds_set(tsb_cursor_bounds *b,
					const char *lower, size_t lowerlen, int haslower,
					const char *upper, size_t upperlen, int hasupper)
{
	if (!haslower)
		lowerlen = 0;
	if (!hasupper)
		upperlen = 0;
	if (lowerlen + upperlen > b->memcap) {
		char *mem = (char *)malloc(lowerlen + upperlen);
		if (mem == NULL)
			return -1;
		if (b->mem != b->room)
			free(b->mem);
		b->mem = mem;
		b->memcap = lowerlen + upperlen;
	}
	b->lower = haslower ? (const char *)memcpy(b->mem, lower, lowerlen) : NULL;
	b->lowerlen = lowerlen;
	b->upper = hasupper ? (const char *)memcpy(b->mem + lowerlen, upper, upperlen) : NULL;
	b->upperlen = upperlen;
	return 0;
}

// tsb_cursor_bounds_free frees a buffer the bounds outgrew their room into.
static inline void tsb_cursor_bounds_free(tsb_cursor_bounds *b)
{
	if (b->mem != b->room)
		free(b->mem);
}

#endif
