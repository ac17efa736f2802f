// overlap: HyperLevelDB 1.0.2 loses and resurrects keys when a manual
// compaction runs while its optimistic compaction thread is busy.
//
// The program uses nothing but the library's C API (renamed hyperleveldb_*
// by scripts/build-hyperleveldb.sh, nothing else changed). It writes the
// 2014 workload's data (24-byte keys: series, timestamp, sequence, all
// big-endian; points round-robin over the series), deletes the older half
// of every series by scanning and deleting in batches, calls the library's
// own compact_range over everything, and then checks three things:
//
//   - the level invariant: below level 0, the tables of one level must not
//     overlap (LevelDB's VersionSet asserts it, an assertion that -DNDEBUG
//     compiles out); read from the "leveldb.sstables" property;
//   - a full scan: every kept key present, in order, no deleted key;
//   - a point read of every 61st key through Get.
//
// Usage: overlap DIR POINTS SERIES [MODE [WRITE_BUFFER_BYTES]]
//        overlap DIR
// DIR must not exist; given alone, it is an existing store (one the
// benchmark kept with -keep, say) whose levels are checked, nothing else.
// MODE is what happens between the delete and the checks:
//   compact  compact_range(NULL, NULL) at once (the default)
//   quiesce  wait until the background compactions stop (no table change
//            for 10 s), then compact_range(NULL, NULL)
//   none     nothing
// WRITE_BUFFER_BYTES is the memtable size, 64 MiB by default as in the
// benchmark. It exits 1 when any check fails, 0 when all pass.
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <hyperleveldb/c.h>

enum { KEY = 24, BATCH = 1000, CHUNK = 4096 };

static void check(char *err, const char *what)
{
	if (err) {
		fprintf(stderr, "overlap: %s: %s\n", what, err);
		exit(2);
	}
}

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

// Point i belongs to series i % series, at time i / series.
static void key(unsigned char *k, uint64_t i, uint64_t series)
{
	put64(k, i % series);
	put64(k + 8, i / series);
	put64(k + 16, i);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

// unescape decodes the text of a user key as LevelDB's EscapeString
// shows it (bytes from ' ' to '~' as they are, others as \xNN) into out,
// which must come to exactly KEY bytes. A backslash is shown as itself,
// so "\x41" may be one escaped byte or four plain ones; the length decides.
static int unescape(const char *s, const char *end, unsigned char *out, int k)
{
	if (k == KEY)
		return s == end;
	if (s >= end)
		return 0;
	unsigned int b;
	if (s[0] == '\\' && end - s >= 4 && s[1] == 'x' && sscanf(s + 2, "%2x", &b) == 1 &&
	    isxdigit((unsigned char)s[2]) && isxdigit((unsigned char)s[3])) {
		out[k] = (unsigned char)b;
		if (unescape(s + 4, end, out, k + 1))
			return 1;
	}
	out[k] = (unsigned char)s[0];
	return unescape(s + 1, end, out, k + 1);
}

// ikey is an internal key of a table listing: user key, then sequence.
struct ikey {
	unsigned char user[KEY];
	uint64_t seq;
};

// parse_ikey reads "'<escaped user key>' @ <seq> : <type>" at *p and
// moves *p past it.
static int parse_ikey(const char **p, struct ikey *k)
{
	if (**p != '\'')
		return 0;
	const char *text = *p + 1, *at = strstr(text, "' @ ");
	if (!at || !unescape(text, at, k->user, 0))
		return 0;
	char *rest;
	k->seq = strtoull(at + 4, &rest, 10);
	*p = rest;
	return 1;
}

// icmp orders internal keys as LevelDB does: user key ascending, then
// sequence descending.
static int icmp(const struct ikey *a, const struct ikey *b)
{
	int c = memcmp(a->user, b->user, KEY);
	if (c)
		return c;
	return a->seq > b->seq ? -1 : a->seq < b->seq;
}

// overlaps counts the pairs of neighbouring tables in one level above 0
// whose key ranges overlap, in the "leveldb.sstables" listing: "--- level
// N ---", then " number:size[smallest .. largest]" per table in key order.
static int overlaps(hyperleveldb_t *db, int verbose)
{
	char *s = hyperleveldb_property_value(db, "leveldb.sstables");
	if (!s)
		return 0;
	int level = -1, n = 0, have = 0;
	struct ikey prev;
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "--- level %d ---", &level) == 1) {
			have = 0;
			continue;
		}
		const char *p = strchr(line, '[');
		struct ikey small, large;
		unsigned long long number = strtoull(line, NULL, 10);
		if (level <= 0 || !p)
			continue;
		p++;
		if (!parse_ikey(&p, &small) || !(p = strstr(p, " .. ")) || (p += 4, !parse_ikey(&p, &large))) {
			fprintf(stderr, "overlap: cannot read table %llu of level %d\n", number, level);
			continue;
		}
		if (have && icmp(&small, &prev) <= 0) {
			if (verbose && n < 5)
				printf("  level %d: table %llu starts at series %" PRIu64 " time %" PRIu64
				       ", before its neighbour's end, series %" PRIu64 " time %" PRIu64 "\n",
				       level, number, get64(small.user), get64(small.user + 8), get64(prev.user),
				       get64(prev.user + 8));
			n++;
		}
		prev = large;
		have = 1;
	}
	free(s);
	return n;
}

// level_summary prints the table count of every level.
static void level_summary(hyperleveldb_t *db, const char *when)
{
	printf("%s: tables per level", when);
	for (int l = 0; l < 7; l++) {
		char name[64];
		snprintf(name, sizeof name, "leveldb.num-files-at-level%d", l);
		char *v = hyperleveldb_property_value(db, name);
		printf(" %s", v ? v : "?");
		free(v);
	}
	printf("\n");
}

// quiesce waits until the table listing stays the same for 10 s.
static void quiesce(hyperleveldb_t *db)
{
	char *last = NULL;
	double t0 = now();
	for (int still = 0; still < 10;) {
		sleep(1);
		char *s = hyperleveldb_property_value(db, "leveldb.sstables");
		still = last && s && strcmp(last, s) == 0 ? still + 1 : 0;
		free(last);
		last = s;
	}
	free(last);
	printf("quiesced after %.1fs\n", now() - t0);
}

// check_store reports the overlaps in the levels of the store in dir.
static int check_store(const char *dir)
{
	hyperleveldb_options_t *o = hyperleveldb_options_create();
	char *err = NULL;
	hyperleveldb_t *db = hyperleveldb_open(o, dir, &err);
	check(err, "open");
	level_summary(db, dir);
	int bad = overlaps(db, 1);
	printf("overlapping neighbour tables in levels 1-6: %d\n", bad);
	hyperleveldb_close(db);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	// Line by line, so that an assertion's abort loses nothing printed.
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2)
		return check_store(argv[1]);
	if (argc < 4) {
		fprintf(stderr, "usage: overlap DIR POINTS SERIES [MODE [WRITE_BUFFER_BYTES]] | overlap DIR\n");
		return 2;
	}
	const char *dir = argv[1];
	uint64_t points = strtoull(argv[2], NULL, 10), series = strtoull(argv[3], NULL, 10);
	const char *mode = argc > 4 ? argv[4] : "compact";
	size_t wbuf = argc > 5 ? strtoull(argv[5], NULL, 10) : 64 << 20;
	if (strcmp(mode, "compact") && strcmp(mode, "quiesce") && strcmp(mode, "none")) {
		fprintf(stderr, "overlap: MODE is compact, quiesce or none, not %s\n", mode);
		return 2;
	}
	if (series == 0 || points < series || points % series) {
		fprintf(stderr, "overlap: POINTS must be a multiple of SERIES\n");
		return 2;
	}
	if (access(dir, F_OK) == 0) {
		fprintf(stderr, "overlap: %s exists; give a new directory\n", dir);
		return 2;
	}
	// The benchmark's settings: 64 MiB cache, bloom filter of 10 bits,
	// Snappy, 1000 open files.
	hyperleveldb_options_t *o = hyperleveldb_options_create();
	hyperleveldb_options_set_create_if_missing(o, 1);
	hyperleveldb_options_set_write_buffer_size(o, wbuf);
	hyperleveldb_options_set_cache(o, hyperleveldb_cache_create_lru(64 << 20));
	hyperleveldb_options_set_filter_policy(o, hyperleveldb_filterpolicy_create_bloom(10));
	hyperleveldb_options_set_compression(o, hyperleveldb_snappy_compression);
	hyperleveldb_options_set_max_open_files(o, 1000);
	char *err = NULL;
	hyperleveldb_t *db = hyperleveldb_open(o, dir, &err);
	check(err, "open");
	hyperleveldb_writeoptions_t *wo = hyperleveldb_writeoptions_create();
	hyperleveldb_readoptions_t *ro = hyperleveldb_readoptions_create();
	unsigned char k[KEY], v[8];

	double t = now();
	hyperleveldb_writebatch_t *b = hyperleveldb_writebatch_create();
	for (uint64_t i = 0; i < points; i++) {
		key(k, i, series);
		put64(v, i * 2654435761u);
		hyperleveldb_writebatch_put(b, (char *)k, KEY, (char *)v, 8);
		if ((i + 1) % BATCH == 0 || i + 1 == points) {
			hyperleveldb_write(db, wo, b, &err);
			check(err, "write");
			hyperleveldb_writebatch_clear(b);
		}
	}
	printf("wrote %" PRIu64 " points over %" PRIu64 " series in %.1fs\n", points, series, now() - t);

	// Delete the older half of every series: times below per/2, by
	// scanning each series' range and deleting what it finds in one
	// batch, as the benchmark's DeleteRange does (in batches of 4096) for
	// engines without a range delete.
	uint64_t per = points / series, cut = per / 2, deleted = 0;
	t = now();
	for (uint64_t s = 0; s < series; s++) {
		unsigned char lo[KEY] = {0}, hi[KEY] = {0};
		put64(lo, s);
		put64(hi, s);
		put64(hi + 8, cut);
		hyperleveldb_iterator_t *it = hyperleveldb_create_iterator(db, ro);
		for (hyperleveldb_iter_seek(it, (char *)lo, KEY); hyperleveldb_iter_valid(it);
		     hyperleveldb_iter_next(it)) {
			size_t n;
			const char *ik = hyperleveldb_iter_key(it, &n);
			if (n != KEY || memcmp(ik, hi, KEY) >= 0)
				break;
			hyperleveldb_writebatch_delete(b, ik, n);
			deleted++;
		}
		hyperleveldb_iter_destroy(it);
		hyperleveldb_write(db, wo, b, &err);
		check(err, "delete");
		hyperleveldb_writebatch_clear(b);
	}
	printf("deleted %" PRIu64 " points in %.1fs\n", deleted, now() - t);
	level_summary(db, "before compaction");
	if (strcmp(mode, "quiesce") == 0)
		quiesce(db);
	if (strcmp(mode, "none")) {
		t = now();
		hyperleveldb_compact_range(db, NULL, 0, NULL, 0);
		printf("compact_range(NULL, NULL) took %.1fs\n", now() - t);
		level_summary(db, "after compaction");
	}

	int bad = overlaps(db, 1);
	printf("overlapping neighbour tables in levels 1-6: %d\n", bad);

	// A full scan: the kept half of every series, in key order.
	uint64_t seen = 0, missing = 0, unexpected = 0, disorder = 0, want = series * (per - cut);
	unsigned char prev[KEY] = {0};
	uint64_t next = 0; // the kept position the scan should show next
	hyperleveldb_iterator_t *it = hyperleveldb_create_iterator(db, ro);
	for (hyperleveldb_iter_seek_to_first(it); hyperleveldb_iter_valid(it); hyperleveldb_iter_next(it)) {
		size_t n;
		const unsigned char *ik = (const unsigned char *)hyperleveldb_iter_key(it, &n);
		if (seen && memcmp(ik, prev, KEY) <= 0)
			disorder++;
		memcpy(prev, ik, KEY);
		seen++;
		uint64_t s = get64(ik), ts = get64(ik + 8);
		if (ts < cut) {
			unexpected++;
			continue;
		}
		// Kept keys in key order are numbered s*(per-cut) + ts-cut;
		// a gap before this one is missing keys.
		uint64_t pos = s * (per - cut) + ts - cut;
		if (pos > next)
			missing += pos - next;
		if (pos >= next)
			next = pos + 1;
	}
	if (next < want)
		missing += want - next;
	hyperleveldb_iter_destroy(it);
	printf("scan: %" PRIu64 " keys of %" PRIu64 " expected: %" PRIu64 " missing, %" PRIu64
	       " deleted ones back, %" PRIu64 " out of order\n",
	       seen, want, missing, unexpected, disorder);

	// Every 61st key by Get (all would take minutes at 100M).
	uint64_t get_missing = 0, get_back = 0;
	for (uint64_t i = 0; i < points; i += 61) {
		key(k, i, series);
		size_t n;
		char *val = hyperleveldb_get(db, ro, (char *)k, KEY, &n, &err);
		check(err, "get");
		int kept = i / series >= cut;
		if (kept && !val)
			get_missing++;
		if (!kept && val)
			get_back++;
		free(val);
	}
	printf("get (every 61st key): %" PRIu64 " kept keys not found, %" PRIu64 " deleted keys found\n", get_missing, get_back);

	hyperleveldb_writebatch_destroy(b);
	hyperleveldb_close(db);
	int ok = bad == 0 && missing == 0 && unexpected == 0 && disorder == 0 && get_missing == 0 && get_back == 0;
	printf("%s\n", ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
