// The C side of the binding. Kyoto Cabinet records an error per thread,
// and a goroutine may change threads between two cgo calls, so every
// helper here reads the error in the same call as the operation that set
// it. Defragmentation, which the C API lacks, comes from the C++ one.

#ifndef TSB_KC_BINDING_H
#define TSB_KC_BINDING_H

#include <kclangc.h>

#ifdef __cplusplus
extern "C" {
#endif

// tsb_kc_status is the outcome of a call: KCESUCCESS, or Kyoto Cabinet's
// error code and message (a static string).
typedef struct {
	int32_t code;
	const char *msg;
} tsb_kc_status;

int32_t tsb_kc_open(KCDB *db, const char *path, uint32_t mode, tsb_kc_status *st);
int32_t tsb_kc_close(KCDB *db, tsb_kc_status *st);
int32_t tsb_kc_set(KCDB *db, const char *k, size_t klen, const char *v, size_t vlen, tsb_kc_status *st);
// tsb_kc_remove succeeds for an absent key too.
int32_t tsb_kc_remove(KCDB *db, const char *k, size_t klen, tsb_kc_status *st);
// tsb_kc_get returns the value (free it with kcfree), or NULL with
// st->code KCENOREC for an absent key.
char *tsb_kc_get(KCDB *db, const char *k, size_t klen, size_t *vlen, tsb_kc_status *st);
int32_t tsb_kc_begin(KCDB *db, int32_t hard, tsb_kc_status *st);
int32_t tsb_kc_end(KCDB *db, int32_t commit, tsb_kc_status *st);
int32_t tsb_kc_sync(KCDB *db, int32_t hard, tsb_kc_status *st);
// tsb_kc_defrag defragments the whole file of a tree or hash database.
int32_t tsb_kc_defrag(KCDB *db, tsb_kc_status *st);

// tsb_kc_jump positions cur for a forward scan at the first key >= k, or
// for a backward one at the last key <= k; a NULL k is the first (last)
// record. An empty database or range is st->code KCENOREC.
int32_t tsb_kc_jump(KCCUR *cur, int32_t back, const char *k, size_t klen, tsb_kc_status *st);

// tsb_kc_entry is a record read by a cursor: key and value point into buf,
// which the next tsb_kc_fetch, or kcfree, releases.
typedef struct {
	char *buf;
	const char *key;
	size_t klen;
	const char *val;
	size_t vlen;
} tsb_kc_entry;

// tsb_kc_fetch frees drop, then reads the record at cur into e and moves
// cur on: forward for step 1, backward for -1, not at all for 0. At the
// end e->buf is NULL and st->code KCENOREC.
void tsb_kc_fetch(KCCUR *cur, int32_t step, char *drop, tsb_kc_entry *e, tsb_kc_status *st);
// tsb_kc_fill_result is what a fill did: n records, copied into
// buf[0:used], the last of them at buf[last]; end is set when cur has no
// more records below the bound (or failed: st says).
typedef struct {
	size_t used, last;
	int32_t n, end;
} tsb_kc_fill_result;

// tsb_kc_fill frees drop, then reads records forward from cur, as
// tsb_kc_fetch does, and copies each into buf, cap bytes that Go lends
// for the call, in engine.AppendEntry's layout (the key's and the value's
// length as native uint32s, the key, the value): at most limit records,
// and none at or past upper when hasupper. A record read that does not
// fit is left in pend, whose buf the caller frees; pend->buf is NULL
// otherwise.
void tsb_kc_fill(KCCUR *cur, char *drop, const char *upper, size_t ulen, int32_t hasupper,
		 char *buf, size_t cap, int32_t limit, tsb_kc_entry *pend, tsb_kc_fill_result *r,
		 tsb_kc_status *st);
// tsb_kc_remove_at removes the record at cur, which moves to the next.
int32_t tsb_kc_remove_at(KCCUR *cur, tsb_kc_status *st);

#ifdef __cplusplus
}
#endif

#endif
