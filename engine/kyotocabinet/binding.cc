#include <string.h>

#include <kcpolydb.h>

#include "binding.h"

using kyotocabinet::BasicDB;
using kyotocabinet::HashDB;
using kyotocabinet::PolyDB;
using kyotocabinet::TreeDB;

// A nonzero result is success; otherwise the status records why.
static int32_t result(KCDB *db, int32_t ok, tsb_kc_status *st)
{
	st->code = ok ? KCESUCCESS : kcdbecode(db);
	st->msg = ok ? "" : kcdbemsg(db);
	return ok;
}

static int32_t cresult(KCCUR *cur, int32_t ok, tsb_kc_status *st)
{
	st->code = ok ? KCESUCCESS : kccurecode(cur);
	st->msg = ok ? "" : kccuremsg(cur);
	return ok;
}

// ptr passes a region to Kyoto Cabinet, which wants a non-NULL pointer
// even for an empty key or value.
static const char *ptr(const char *p) { return p != NULL ? p : ""; }

int32_t tsb_kc_open(KCDB *db, const char *path, uint32_t mode, tsb_kc_status *st)
{
	return result(db, kcdbopen(db, path, mode), st);
}

int32_t tsb_kc_close(KCDB *db, tsb_kc_status *st)
{
	return result(db, kcdbclose(db), st);
}

int32_t tsb_kc_set(KCDB *db, const char *k, size_t klen, const char *v, size_t vlen, tsb_kc_status *st)
{
	return result(db, kcdbset(db, ptr(k), klen, ptr(v), vlen), st);
}

int32_t tsb_kc_remove(KCDB *db, const char *k, size_t klen, tsb_kc_status *st)
{
	int32_t ok = kcdbremove(db, ptr(k), klen);
	if (!ok && kcdbecode(db) == KCENOREC)
		ok = 1;
	return result(db, ok, st);
}

char *tsb_kc_get(KCDB *db, const char *k, size_t klen, size_t *vlen, tsb_kc_status *st)
{
	char *v = kcdbget(db, ptr(k), klen, vlen);
	result(db, v != NULL, st);
	return v;
}

int32_t tsb_kc_begin(KCDB *db, int32_t hard, tsb_kc_status *st)
{
	return result(db, kcdbbegintran(db, hard), st);
}

int32_t tsb_kc_end(KCDB *db, int32_t commit, tsb_kc_status *st)
{
	return result(db, kcdbendtran(db, commit), st);
}

int32_t tsb_kc_sync(KCDB *db, int32_t hard, tsb_kc_status *st)
{
	return result(db, kcdbsync(db, hard, NULL, NULL), st);
}

int32_t tsb_kc_defrag(KCDB *db, tsb_kc_status *st)
{
	// kclangc.cc makes every KCDB a PolyDB.
	BasicDB *inner = reinterpret_cast<PolyDB *>(db)->reveal_inner_db();
	bool ok;
	if (TreeDB *tree = dynamic_cast<TreeDB *>(inner)) {
		ok = tree->defrag(0);
	} else if (HashDB *hash = dynamic_cast<HashDB *>(inner)) {
		ok = hash->defrag(0);
	} else {
		st->code = KCENOIMPL;
		st->msg = "defragmentation of this database type";
		return 0;
	}
	return result(db, ok, st);
}

int32_t tsb_kc_jump(KCCUR *cur, int32_t back, const char *k, size_t klen, tsb_kc_status *st)
{
	int32_t ok;
	if (back)
		ok = k != NULL ? kccurjumpbackkey(cur, k, klen) : kccurjumpback(cur);
	else
		ok = k != NULL ? kccurjumpkey(cur, k, klen) : kccurjump(cur);
	return cresult(cur, ok, st);
}

void tsb_kc_fetch(KCCUR *cur, int32_t step, char *drop, tsb_kc_entry *e, tsb_kc_status *st)
{
	kcfree(drop);
	e->buf = kccurget(cur, &e->klen, &e->val, &e->vlen, step > 0);
	e->key = e->buf;
	if (e->buf == NULL) {
		cresult(cur, 0, st);
		return;
	}
	// Moving back from the first record leaves the cursor on none, and
	// the next fetch reports the end.
	if (step < 0)
		kccurstepback(cur);
	cresult(cur, 1, st);
}

// keycmp orders two keys as bytes.Compare does.
static int keycmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);
	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen;
}

void tsb_kc_fill(KCCUR *cur, char *drop, const char *upper, size_t ulen, int32_t hasupper,
		 char *buf, size_t cap, int32_t limit, tsb_kc_entry *pend, tsb_kc_fill_result *r,
		 tsb_kc_status *st)
{
	kcfree(drop);
	*r = tsb_kc_fill_result{};
	pend->buf = NULL;
	cresult(cur, 1, st);
	while (r->n < limit) {
		size_t klen, vlen;
		const char *val;
		char *k = kccurget(cur, &klen, &val, &vlen, 1);
		if (k == NULL) {
			cresult(cur, 0, st);
			r->end = 1;
			return;
		}
		if (hasupper && keycmp(k, klen, upper, ulen) >= 0) {
			kcfree(k);
			r->end = 1;
			return;
		}
		size_t size = 8 + klen + vlen;
		if (size > cap - r->used) {
			*pend = tsb_kc_entry{k, k, klen, val, vlen};
			return;
		}
		char *p = buf + r->used;
		uint32_t kl = (uint32_t)klen, vl = (uint32_t)vlen;
		memcpy(p, &kl, 4);
		memcpy(p + 4, &vl, 4);
		memcpy(p + 8, k, klen);
		memcpy(p + 8 + klen, val, vlen);
		kcfree(k);
		r->last = r->used;
		r->used += size;
		r->n++;
	}
}

int32_t tsb_kc_remove_at(KCCUR *cur, tsb_kc_status *st)
{
	return cresult(cur, kccurremove(cur), st);
}
