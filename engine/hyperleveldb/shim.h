// C helpers that keep the cgo cost of the Go binding to one call per
// iterator move, per commit and per point operation.

#ifndef TSB_HYPERLEVELDB_SHIM_H
#define TSB_HYPERLEVELDB_SHIM_H

#include <stddef.h>
#include <hyperleveldb/c.h>

// hl_cursor is an iterator plus the entry it rests on, kept in C memory so
// Go reads the key and value pointers without another call. HyperLevelDB
// has no iterator bounds, so the cursor enforces them; a NULL bound is
// unbounded.
typedef struct {
	hyperleveldb_iterator_t *it;
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
	char *lower;
	size_t lowerlen;
	char *upper;
	size_t upperlen;
	char *err;
} hl_cursor;

enum { HL_FIRST, HL_LAST, HL_SEEK, HL_NEXT, HL_PREV };

hl_cursor *hl_cursor_new(hyperleveldb_t *db, const hyperleveldb_readoptions_t *ro,
			 const char *lower, size_t lowerlen, int haslower,
			 const char *upper, size_t upperlen, int hasupper);
void hl_cursor_free(hl_cursor *c);
// hl_cursor_move runs op (k is the HL_SEEK target) and reports whether the
// cursor rests on an entry within bounds; if not, c->err may be set.
int hl_cursor_move(hl_cursor *c, int op, const char *k, size_t klen);

// hl_value is the result of hl_get: val is NULL when the key is absent.
typedef struct {
	char *val;
	size_t vlen;
	char *err;
} hl_value;

// The point operations return their error (or NULL) instead of filling an
// out-parameter, so that Go passes no pointer to its own stack variables,
// which would move them to the heap on every call.
hl_value hl_get(hyperleveldb_t *db, const hyperleveldb_readoptions_t *ro,
		const char *k, size_t klen);
char *hl_put(hyperleveldb_t *db, const hyperleveldb_writeoptions_t *wo,
	     const char *k, size_t klen, const char *v, size_t vlen);
char *hl_delete(hyperleveldb_t *db, const hyperleveldb_writeoptions_t *wo,
		const char *k, size_t klen);

// hl_write commits a batch encoded by batch.go in one write.
char *hl_write(hyperleveldb_t *db, const hyperleveldb_writeoptions_t *wo,
	       const char *rep, size_t n);

// hl_flush_memtable writes the memtable to a table file.
void hl_flush_memtable(hyperleveldb_t *db);

// hyperleveldb_tsb_compact_range is compact_range made to give the space
// of deleted entries back in every case; it is compiled into the library
// from scripts/hyperleveldb-compact.cc, which says why.
void hyperleveldb_tsb_compact_range(hyperleveldb_t *db,
				    const char *start_key, size_t start_key_len,
				    const char *limit_key, size_t limit_key_len);

#endif
