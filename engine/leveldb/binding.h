// The C side of the binding: an iterator cursor and a batch writer that
// keep the cost per entry and per commit to one cgo call.

#ifndef TSB_LEVELDB_BINDING_H
#define TSB_LEVELDB_BINDING_H

#include <stddef.h>
#include <leveldb/c.h>

// tsb_leveldb_cursor is an iterator plus the entry it rests on, kept in C
// memory so that Go reads the key and value pointers without another call.
// LevelDB has no iterator bounds, so the cursor enforces them; a NULL
// bound is none.
typedef struct {
	leveldb_iterator_t *it;
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
	char *lower;
	size_t lowerlen;
	char *upper;
	size_t upperlen;
	char *err;
} tsb_leveldb_cursor;

enum {
	TSB_LEVELDB_FIRST,
	TSB_LEVELDB_LAST,
	TSB_LEVELDB_SEEK,
	TSB_LEVELDB_NEXT,
	TSB_LEVELDB_PREV,
};

// tsb_leveldb_cursor_new copies the bounds; it returns NULL when out of
// memory.
tsb_leveldb_cursor *tsb_leveldb_cursor_new(
	leveldb_t *db, const leveldb_readoptions_t *ro,
	const char *lower, size_t lowerlen, int haslower,
	const char *upper, size_t upperlen, int hasupper);
void tsb_leveldb_cursor_free(tsb_leveldb_cursor *c);

// tsb_leveldb_cursor_move positions the cursor (k is the Seek target) and
// reports whether it rests on a key within bounds. c->err is set if the
// iterator failed.
int tsb_leveldb_cursor_move(tsb_leveldb_cursor *c, int op,
			    const char *k, size_t klen);

// Record tags of the batch encoding (see batch.go).
enum { TSB_LEVELDB_DELETE, TSB_LEVELDB_PUT };

// tsb_leveldb_write commits a batch encoded by Batch (see batch.go).
char *tsb_leveldb_write(leveldb_t *db, const leveldb_writeoptions_t *wo,
			const char *rep, size_t n);

// tsb_leveldb_flush_memtable writes the memtable to a table file.
void tsb_leveldb_flush_memtable(leveldb_t *db);

#endif
