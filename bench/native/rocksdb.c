// The native yardstick's backend for RocksDB.

#include <stdlib.h>

#include <rocksdb/c.h>

#include "ts.h"

typedef struct {
	rocksdb_t *db;
	rocksdb_readoptions_t *ro;
	rocksdb_writeoptions_t *wo;
	rocksdb_writebatch_t *wb;
} store;

static void check(char *err, const char *what)
{
	if (err != NULL)
		ts_die("%s: %s", what, err);
}

void *be_open(const char *dir)
{
	store *s = calloc(1, sizeof *s);
	rocksdb_options_t *o = rocksdb_options_create();
	rocksdb_block_based_table_options_t *t = rocksdb_block_based_options_create();
	rocksdb_block_based_options_set_block_cache(t, rocksdb_cache_create_lru((size_t)ts_option("cache_size")));
	rocksdb_block_based_options_set_block_size(t, (size_t)ts_option("block_size"));
	long long bloom = ts_option("bloom_bits_per_key");
	if (bloom > 0)
		rocksdb_block_based_options_set_filter_policy(t, rocksdb_filterpolicy_create_bloom_full((double)bloom));
	rocksdb_options_set_block_based_table_factory(o, t);
	rocksdb_options_set_create_if_missing(o, 1);
	rocksdb_options_set_write_buffer_size(o, (size_t)ts_option("write_buffer_size"));
	rocksdb_options_set_max_open_files(o, (int)ts_option("max_open_files"));
	rocksdb_options_set_compression(o, ts_option("snappy") ? rocksdb_snappy_compression : rocksdb_no_compression);
	rocksdb_options_set_max_background_jobs(o, (int)ts_option("max_background_jobs"));
	rocksdb_options_set_level_compaction_dynamic_level_bytes(o, (unsigned char)ts_option("dynamic_level_bytes"));
	rocksdb_options_set_target_file_size_base(o, (uint64_t)ts_option("target_file_size_base"));
	rocksdb_options_set_max_bytes_for_level_base(o, (uint64_t)ts_option("max_bytes_for_level_base"));
	rocksdb_options_set_max_write_buffer_number(o, (int)ts_option("max_write_buffer_number"));
	rocksdb_options_set_manifest_preallocation_size(o, (size_t)ts_option("manifest_preallocation_size"));
	s->ro = rocksdb_readoptions_create();
	s->wo = rocksdb_writeoptions_create();
	rocksdb_writeoptions_set_sync(s->wo, (unsigned char)ts_option("sync"));
	char *err = NULL;
	s->db = rocksdb_open(o, dir, &err);
	check(err, "open");
	s->wb = rocksdb_writebatch_create();
	return s;
}

void be_put(void *db, const char *k, size_t klen, const char *v, size_t vlen)
{
	rocksdb_writebatch_put(((store *)db)->wb, k, klen, v, vlen);
}

void be_commit(void *db)
{
	store *s = db;
	char *err = NULL;
	rocksdb_write(s->db, s->wo, s->wb, &err);
	check(err, "write");
	rocksdb_writebatch_clear(s->wb);
}

void be_compact(void *db)
{
	rocksdb_compact_range(((store *)db)->db, NULL, 0, NULL, 0);
}

// The iterator keeps to [lo, hi) through the read options' iterate
// bounds, which it reads for its whole life.
void be_scan(void *db, const char *lo, const char *hi, ts_chunk *c)
{
	store *s = db;
	rocksdb_readoptions_set_iterate_lower_bound(s->ro, lo, TS_KEY);
	rocksdb_readoptions_set_iterate_upper_bound(s->ro, hi, TS_KEY);
	rocksdb_iterator_t *it = rocksdb_create_iterator(s->db, s->ro);
	for (rocksdb_iter_seek(it, lo, TS_KEY); rocksdb_iter_valid(it); rocksdb_iter_next(it)) {
		size_t klen, vlen;
		const char *k = rocksdb_iter_key(it, &klen);
		const char *v = rocksdb_iter_value(it, &vlen);
		ts_chunk_add(c, k, klen, v, vlen);
	}
	char *err = NULL;
	rocksdb_iter_get_error(it, &err);
	check(err, "iterate");
	rocksdb_iter_destroy(it);
}

void be_close(void *db)
{
	store *s = db;
	rocksdb_writebatch_destroy(s->wb);
	rocksdb_close(s->db);
}
