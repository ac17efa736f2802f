// The native yardstick's backend for Kyoto Cabinet, linked with the
// library engine/kyotocabinet links (pkg-config kyotocabinet). C++ for
// one call: defragmentation, which the C API lacks, as the engine's
// binding reaches it; everything else through the C API the engine uses.

#include <stdio.h>
#include <stdlib.h>

#include <kcpolydb.h>
#include <kclangc.h>

#include "ts.h"

using namespace kyotocabinet;

typedef struct {
	KCDB *db;
	int hard;    // sync "batch": each commit's transaction fsynced
	int pending; // a batch's transaction is open
} store;

static void check(KCDB *db, int32_t ok, const char *what)
{
	if (!ok)
		ts_die("%s: %s", what, kcecodename(kcdbecode(db)));
}

// The tuning string as engine/kyotocabinet's Options.tuning writes it.
static const char *const compressors[] = {"", "lzo", "zlib", "lzma"};

extern "C" void *be_open(const char *dir)
{
	store *s = (store *)calloc(1, sizeof *s);
	s->db = kcdbnew();
	s->hard = (int)ts_option("sync");
	long long tsmall = ts_option("tune_small"), tlinear = ts_option("tune_linear");
	long long comp = ts_option("compressor");
	if (comp < 0 || comp > 3)
		ts_die("compressor=%lld: 0 to 3", comp);
	char opts[8] = "", path[4096];
	size_t n = 0;
	if (tsmall)
		opts[n++] = 's';
	if (tlinear)
		opts[n++] = 'l';
	if (comp)
		opts[n++] = 'c';
	int w = snprintf(path, sizeof path, "%s/data.kct#psiz=%lld#msiz=%lld#bnum=%lld#pccap=%lld%s%s%s%s",
			 dir, ts_option("page_size"), ts_option("map_size"), ts_option("buckets"), ts_option("cache_size"),
			 n ? "#opts=" : "", opts, comp ? "#zcomp=" : "", compressors[comp]);
	if (w < 0 || (size_t)w >= sizeof path)
		ts_die("path too long");
	uint32_t mode = KCOWRITER | KCOCREATE | KCOTRYLOCK;
	if (s->hard)
		mode |= KCOAUTOTRAN | KCOAUTOSYNC;
	check(s->db, kcdbopen(s->db, path, mode), "open");
	return s;
}

extern "C" void be_put(void *db, const char *k, size_t klen, const char *v, size_t vlen)
{
	store *s = (store *)db;
	if (!s->pending) {
		check(s->db, kcdbbegintran(s->db, s->hard), "begin transaction");
		s->pending = 1;
	}
	check(s->db, kcdbset(s->db, k, klen, v, vlen), "set");
}

extern "C" void be_commit(void *db)
{
	store *s = (store *)db;
	check(s->db, kcdbendtran(s->db, 1), "end transaction");
	s->pending = 0;
}

extern "C" void be_compact(void *db)
{
	store *s = (store *)db;
	// kclangc.cc makes every KCDB a PolyDB; the file is a TreeDB.
	BasicDB *inner = reinterpret_cast<PolyDB *>(s->db)->reveal_inner_db();
	TreeDB *tree = dynamic_cast<TreeDB *>(inner);
	if (tree == NULL)
		ts_die("not a tree database");
	check(s->db, tree->defrag(0), "defrag");
}

extern "C" void be_scan(void *db, const char *lo, const char *hi, ts_chunk *c)
{
	store *s = (store *)db;
	KCCUR *cur = kcdbcursor(s->db);
	if (kccurjumpkey(cur, lo, TS_KEY)) {
		size_t klen, vlen;
		const char *v;
		char *k;
		// kccurget returns a copy of the record, which the caller frees:
		// the API has no other way to read one.
		while ((k = kccurget(cur, &klen, &v, &vlen, 1)) != NULL) {
			size_t n = klen < TS_KEY ? klen : TS_KEY;
			int r = memcmp(k, hi, n);
			if (r > 0 || (r == 0 && klen >= TS_KEY)) {
				kcfree(k);
				break;
			}
			ts_chunk_add(c, k, klen, v, vlen);
			kcfree(k);
		}
	}
	if (kccurecode(cur) != KCESUCCESS && kccurecode(cur) != KCENOREC)
		ts_die("iterate: %s", kcecodename(kccurecode(cur)));
	kccurdel(cur);
}

extern "C" void be_close(void *db)
{
	store *s = (store *)db;
	check(s->db, kcdbclose(s->db), "close");
	kcdbdel(s->db);
	free(s);
}
