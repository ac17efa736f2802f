// The C side of the binding: an iterator cursor that keeps the cost per
// entry to one cgo call, and the library version.

#ifndef TSB_ROCKSDB_BINDING_H
#define TSB_ROCKSDB_BINDING_H

#include <stddef.h>
#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

// tsb_rocksdb_cursor is an iterator plus the entry it rests on, kept in C
// memory so that Go reads the key and value pointers without another call.
// The iterator itself enforces the bounds (ReadOptions iterate bounds).
typedef struct {
	rocksdb_iterator_t *it;
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
	char *err;
} tsb_rocksdb_cursor;

enum {
	TSB_ROCKSDB_FIRST,
	TSB_ROCKSDB_LAST,
	TSB_ROCKSDB_SEEK,
	TSB_ROCKSDB_NEXT,
	TSB_ROCKSDB_PREV,
};

// tsb_rocksdb_cursor_move positions the cursor (k is the Seek target) and
// reports whether it rests on a key. c->err is set if the iterator failed.
int tsb_rocksdb_cursor_move(tsb_rocksdb_cursor *c, int op,
			    const char *k, size_t klen);

// tsb_rocksdb_version returns the linked library's version, like "7.8.3".
const char *tsb_rocksdb_version(void);

#ifdef __cplusplus
}
#endif

#endif
