// The native yardstick: the time-series workload's write and query steps
// (package workload) written directly against each engine's C library, so
// that the harness's cost can be measured as its time over this one's.
//
// ts.c is the driver: it generates the same points as workload.Generator,
// times only the engine calls as the harness does, checks what it reads
// outside the timer, and prints the times. One backend file per library
// (level.c for LevelDB and HyperLevelDB, rocksdb.c, lmdb.c, sqlite.c,
// kyoto.cc) provides the functions below, written as a C programmer would
// use that library.

#ifndef TS_H
#define TS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { TS_KEY = 24, TS_VALUE_MAX = 11, TS_CHUNK = 1024 };

// ts_die prints a message and exits with status 1.
void ts_die(const char *format, ...) __attribute__((noreturn, format(printf, 1, 2)));

// ts_option returns the value of the name=value argument name, which the
// harness passes from the engine's resolved options; a missing one is
// fatal, and so is one no backend asked for.
long long ts_option(const char *name);

// ts_chunk takes each scanned entry. Copying, it holds them copied out
// of the engine once, as the harness's scanbuf.Chunk does, and
// ts_chunk_add checks a full chunk with the timer paused. Otherwise (the
// engine alone) it only reads each entry's pointers and lengths, and the
// check counts the entries of each series and the bytes of their keys.
typedef struct {
	int copying;
	unsigned char keys[TS_CHUNK * TS_KEY];
	unsigned char vals[TS_CHUNK * TS_VALUE_MAX];
	size_t kends[TS_CHUNK], vends[TS_CHUNK];
	int n;
	size_t klen, vlen;
	uintptr_t seen; // the pointers read, mixed, so that reading them counts
} ts_chunk;

void ts_chunk_check(ts_chunk *c);

static inline void ts_chunk_add(ts_chunk *c, const char *k, size_t klen,
				const char *v, size_t vlen)
{
	if (!c->copying) {
		c->seen += (uintptr_t)k ^ (uintptr_t)v;
		c->klen += klen;
		c->vlen += vlen;
		c->n++;
		return;
	}
	if (klen > TS_KEY || vlen > TS_VALUE_MAX)
		ts_die("entry of %zu+%zu bytes: not the workload's", klen, vlen);
	memcpy(c->keys + c->klen, k, klen);
	c->kends[c->n] = c->klen += klen;
	memcpy(c->vals + c->vlen, v, vlen);
	c->vends[c->n] = c->vlen += vlen;
	if (++c->n == TS_CHUNK)
		ts_chunk_check(c);
}

// The backend. be_open opens or creates the store in dir; be_put adds a
// point to the pending batch and be_commit writes that batch; be_compact
// compacts the whole store, leaving nothing for a later open to compact;
// be_scan reads every key in [lo, hi) in order into c with a new iterator.
void *be_open(const char *dir);
void be_put(void *db, const char *k, size_t klen, const char *v, size_t vlen);
void be_commit(void *db);
void be_compact(void *db);
void be_scan(void *db, const char *lo, const char *hi, ts_chunk *c);
void be_close(void *db);

#ifdef __cplusplus
}
#endif

#endif
