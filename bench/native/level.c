// The native yardstick's backend for LevelDB and HyperLevelDB, whose C
// APIs differ only in their prefix: compiled with -DLIB=leveldb
// -DTS_LEVELDB or -DLIB=hyperleveldb.

#include <stdlib.h>

#include "ts.h"

#define TS_CAT_(a, b) a##b
#define TS_CAT(a, b) TS_CAT_(a, b)
#define API(x) TS_CAT(LIB, TS_CAT(_, x))
#define TS_STR_(x) #x
#define TS_STR(x) TS_STR_(x)
#include TS_STR(LIB/c.h)

typedef struct {
	API(t) *db;
	API(readoptions_t) *ro;
	API(writeoptions_t) *wo;
	API(writebatch_t) *wb;
} store;

static void check(char *err, const char *what)
{
	if (err != NULL)
		ts_die("%s: %s", what, err);
}

void *be_open(const char *dir)
{
	store *s = calloc(1, sizeof *s);
	API(options_t) *o = API(options_create)();
	API(options_set_create_if_missing)(o, 1);
	API(options_set_cache)(o, API(cache_create_lru)((size_t)ts_option("cache_size")));
	API(options_set_write_buffer_size)(o, (size_t)ts_option("write_buffer_size"));
	API(options_set_max_open_files)(o, (int)ts_option("max_open_files"));
	API(options_set_compression)(o, ts_option("snappy") ? API(snappy_compression) : API(no_compression));
	long long bloom = ts_option("bloom_bits_per_key");
	if (bloom > 0)
		API(options_set_filter_policy)(o, API(filterpolicy_create_bloom)((int)bloom));
	API(options_set_block_size)(o, (size_t)ts_option("block_size"));
	s->ro = API(readoptions_create)();
	s->wo = API(writeoptions_create)();
	API(writeoptions_set_sync)(s->wo, (unsigned char)ts_option("sync"));
#ifdef TS_LEVELDB
	API(options_set_max_file_size)(o, (size_t)ts_option("max_file_size"));
#else
	API(options_set_block_restart_interval)(o, (int)ts_option("block_restart_interval"));
	API(options_set_paranoid_checks)(o, (unsigned char)ts_option("paranoid_checks"));
	API(readoptions_set_verify_checksums)(s->ro, (unsigned char)ts_option("verify_checksums"));
#endif
	char *err = NULL;
	s->db = API(open)(o, dir, &err);
	check(err, "open");
	s->wb = API(writebatch_create)();
	return s;
}

void be_put(void *db, const char *k, size_t klen, const char *v, size_t vlen)
{
	API(writebatch_put)(((store *)db)->wb, k, klen, v, vlen);
}

void be_commit(void *db)
{
	store *s = db;
	char *err = NULL;
	API(write)(s->db, s->wo, s->wb, &err);
	check(err, "write");
	API(writebatch_clear)(s->wb);
}

void be_compact(void *db)
{
	API(compact_range)(((store *)db)->db, NULL, 0, NULL, 0);
}

// The library has no iterator bounds: the scan stops at the first key at
// or past hi.
void be_scan(void *db, const char *lo, const char *hi, ts_chunk *c)
{
	store *s = db;
	API(iterator_t) *it = API(create_iterator)(s->db, s->ro);
	for (API(iter_seek)(it, lo, TS_KEY); API(iter_valid)(it); API(iter_next)(it)) {
		size_t klen, vlen;
		const char *k = API(iter_key)(it, &klen);
		size_t n = klen < TS_KEY ? klen : TS_KEY;
		int r = memcmp(k, hi, n);
		if (r > 0 || (r == 0 && klen >= TS_KEY))
			break;
		const char *v = API(iter_value)(it, &vlen);
		ts_chunk_add(c, k, klen, v, vlen);
	}
	char *err = NULL;
	API(iter_get_error)(it, &err);
	check(err, "iterate");
	API(iter_destroy)(it);
}

void be_close(void *db)
{
	store *s = db;
	API(writebatch_destroy)(s->wb);
	API(close)(s->db);
}
