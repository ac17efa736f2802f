// The table of C calls through which package levelcore drives a library of
// the LevelDB family (leveldb, hyperleveldb, rocksdb). The libraries' C
// APIs name the same calls under different prefixes and types, which cgo
// cannot share between Go packages; so library.h compiles one table per
// library, tsb_<prefix>_ops, with every library type passed as void *, and
// the Go side (db.go) is written once against it.
//
// Callers pass lengths and pointers from Go; a key may be NULL only with
// length 0. A call that fails returns the library's message, freed with
// the table's free, and NULL otherwise.

#ifndef TSB_LEVELCORE_H
#define TSB_LEVELCORE_H

#include <stddef.h>
#include <stdint.h>

#include "cursor/cursor.h"

// levelcore_config are the shared options the libraries have in common.
typedef struct {
	size_t cache_size;        // of the LRU block cache
	size_t write_buffer_size; // the memtable's
	size_t block_size;        // of table blocks, uncompressed
	int max_open_files;
	int bloom_bits;           // per key of a bloom filter; 0 for none
	int compress;             // with Snappy
} levelcore_config;

// levelcore_value is the result of get: val is NULL when the key is
// absent, and is freed with the table's free.
typedef struct {
	char *val;
	size_t vlen;
	char *err;
} levelcore_value;

// levelcore_size is the result of size.
typedef struct {
	uint64_t size;
	char *err;
} levelcore_size;

typedef struct {
	// options makes the options open takes from cfg, the library's
	// tsb_<prefix>_options of library.h, or returns NULL when memory runs
	// out; options_free frees them once no database uses them.
	void *(*options)(const levelcore_config *cfg);
	void (*options_free)(void *o);
	void *(*open)(void *o, const char *dir, char **err);
	void (*close)(void *db);
	// readoptions reads snap, or the database as it is now when snap is
	// NULL, checking every block's checksum if verify is set.
	void *(*readoptions)(const void *snap, int verify);
	void (*readoptions_free)(void *ro);
	void *(*writeoptions)(int sync);
	void (*writeoptions_free)(void *wo);
	void *(*snapshot)(void *db);
	void (*snapshot_free)(void *db, void *snap);

	levelcore_value (*get)(void *db, const void *ro, const char *k, size_t klen);
	char *(*put)(void *db, const void *wo, const char *k, size_t klen,
		     const char *v, size_t vlen);
	char *(*del)(void *db, const void *wo, const char *k, size_t klen);
	// write commits rep, a batch package cbatch encoded, in one write.
	// A library that decodes it does so into wb, a write batch from
	// batch that it leaves empty: reusing one keeps the memory it grew,
	// as a C program reuses its batch. batch is NULL for a library that
	// reads the encoding as is; its write takes a NULL wb.
	char *(*write)(void *db, const void *wo, void *wb, const char *rep, size_t n);
	void *(*batch)(void);
	void (*batch_free)(void *wb);
	// delete_range deletes [start, end) with one range tombstone; NULL
	// when the library has none.
	char *(*delete_range)(void *db, const void *wo, const char *start, size_t startlen,
			      const char *end, size_t endlen);

	// cursor creates a cursor over db within [lower, upper), reading with
	// ro (or, for RocksDB, whose iterators keep their bounds in read
	// options of their own, snap, NULL for now); a bound with has* 0 is
	// none. The bounds are copied. It returns NULL when memory runs out.
	// cursor_ops drives it (cursor.NewC).
	void *(*cursor)(void *db, const void *ro, const void *snap,
			const char *lower, size_t lowerlen, int haslower,
			const char *upper, size_t upperlen, int hasupper);
	const tsb_cursor_ops *cursor_ops;

	// size estimates the bytes the keys in [start, end) take; an end with
	// hasend 0 is none, and then the range ends just past the last key.
	levelcore_size (*size)(void *db, const char *start, size_t startlen,
			       const char *end, size_t endlen, int hasend);
	// compact compacts [start, end) through every level, a NULL bound
	// being none, so deleted entries and their tombstones leave the disk.
	char *(*compact)(void *db, const char *start, size_t startlen,
			 const char *end, size_t endlen);
	// flush writes the memtable to a table file.
	char *(*flush)(void *db);
	// property returns the named property, to be freed, or NULL.
	char *(*property)(void *db, const char *name);
	void (*free)(void *p);
} levelcore_ops;

#endif
