// The native yardstick's backend for LMDB, linked with the library
// engine/lmdb loads (lmdb-tsbench.pc, from scripts/build-lmdb.sh).

#include <stdlib.h>

#include <lmdb.h>

#include "ts.h"

typedef struct {
	MDB_env *env;
	MDB_dbi dbi;
	MDB_txn *w; // the pending batch's write transaction, or NULL
	MDB_txn *r; // a reset read transaction, renewed per scan
} store;

static void check(int rc, const char *what)
{
	if (rc != MDB_SUCCESS)
		ts_die("%s: %s", what, mdb_strerror(rc));
}

void *be_open(const char *dir)
{
	store *s = calloc(1, sizeof *s);
	check(mdb_env_create(&s->env), "create environment");
	check(mdb_env_set_mapsize(s->env, (size_t)ts_option("map_size")), "set map size");
	check(mdb_env_set_maxreaders(s->env, (unsigned)ts_option("max_readers")), "set max readers");
	// As the engine, which opens every environment with MDB_NOTLS.
	unsigned flags = MDB_NOTLS;
	if (ts_option("no_readahead"))
		flags |= MDB_NORDAHEAD;
	if (ts_option("write_map"))
		flags |= MDB_WRITEMAP;
	if (!ts_option("sync"))
		flags |= flags & MDB_WRITEMAP ? MDB_MAPASYNC : MDB_NOSYNC;
	check(mdb_env_open(s->env, dir, flags, 0644), "open environment");
	MDB_txn *txn;
	check(mdb_txn_begin(s->env, NULL, 0, &txn), "begin");
	check(mdb_dbi_open(txn, NULL, 0, &s->dbi), "open root database");
	check(mdb_txn_commit(txn), "commit");
	check(mdb_txn_begin(s->env, NULL, MDB_RDONLY, &s->r), "begin read");
	mdb_txn_reset(s->r);
	return s;
}

void be_put(void *db, const char *k, size_t klen, const char *v, size_t vlen)
{
	store *s = db;
	if (s->w == NULL)
		check(mdb_txn_begin(s->env, NULL, 0, &s->w), "begin write");
	MDB_val key = {klen, (void *)k}, val = {vlen, (void *)v};
	check(mdb_put(s->w, s->dbi, &key, &val, 0), "put");
}

void be_commit(void *db)
{
	store *s = db;
	check(mdb_txn_commit(s->w), "commit");
	s->w = NULL;
}

// A B+tree has nothing to compact.
void be_compact(void *db) { (void)db; }

void be_scan(void *db, const char *lo, const char *hi, ts_chunk *c)
{
	store *s = db;
	MDB_cursor *cur;
	check(mdb_txn_renew(s->r), "renew read");
	check(mdb_cursor_open(s->r, s->dbi, &cur), "open cursor");
	MDB_val key = {TS_KEY, (void *)lo}, val;
	int rc = mdb_cursor_get(cur, &key, &val, MDB_SET_RANGE);
	for (; rc == MDB_SUCCESS; rc = mdb_cursor_get(cur, &key, &val, MDB_NEXT)) {
		size_t n = key.mv_size < TS_KEY ? key.mv_size : TS_KEY;
		int r = memcmp(key.mv_data, hi, n);
		if (r > 0 || (r == 0 && key.mv_size >= TS_KEY))
			break;
		ts_chunk_add(c, key.mv_data, key.mv_size, val.mv_data, val.mv_size);
	}
	if (rc != MDB_SUCCESS && rc != MDB_NOTFOUND)
		check(rc, "iterate");
	mdb_cursor_close(cur);
	mdb_txn_reset(s->r);
}

void be_close(void *db)
{
	store *s = db;
	mdb_txn_abort(s->r);
	mdb_env_close(s->env);
}
