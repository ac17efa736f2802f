// The C side of package cbatch: decoding a batch that Buffer encoded, in
// LevelDB's write batch representation (see cbatch.go).

#ifndef TSB_CBATCH_H
#define TSB_CBATCH_H

#include <stddef.h>
#include <stdint.h>

enum { TSB_CBATCH_DELETE = 0, TSB_CBATCH_PUT = 1, TSB_CBATCH_HEADER = 12 };

// tsb_cbatch_varint32 decodes the varint32 at *p, advancing *p past it.
static inline uint32_t tsb_cbatch_varint32(const unsigned char **p)
{
	uint32_t v = 0;
	for (int shift = 0; shift <= 28; shift += 7) {
		unsigned char b = *(*p)++;
		v |= (uint32_t)(b & 0x7f) << shift;
		if (b < 0x80)
			break;
	}
	return v;
}

// tsb_cbatch_next decodes the record at *p, below end, and advances *p
// past it. It returns the record's tag, or -1 at the end; a delete leaves
// *v and *vlen alone. The input comes from Buffer, so it is well formed.
static inline int tsb_cbatch_next(const unsigned char **p, const unsigned char *end,
				  const char **k, size_t *klen,
				  const char **v, size_t *vlen)
{
	if (*p >= end)
		return -1;
	int tag = *(*p)++;
	*klen = tsb_cbatch_varint32(p);
	*k = (const char *)*p;
	*p += *klen;
	if (tag == TSB_CBATCH_PUT) {
		*vlen = tsb_cbatch_varint32(p);
		*v = (const char *)*p;
		*p += *vlen;
	}
	return tag;
}

#endif
