// The driver of the native yardstick; see ts.h. Usage:
//
//	ts DIR POINTS SERIES BATCH SEED MODE name=value...
//
// MODE write writes the points into a new store in DIR, then compacts it
// whole and closes it, so that every later reader reads the same files
// (its compaction is not timed). MODE copy or alone queries the store
// that a write left in DIR: copy copies each entry read once, then checks
// it; alone reads only each entry's pointers and lengths (the engine
// alone).
//
// It prints one line: write_ns=... query_ns=... write_cpu_ns=...
// query_cpu_ns=... read=... errors=..., the times of the step it did not
// run being 0.

#define _GNU_SOURCE // RUSAGE_THREAD
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "ts.h"

// The generator of package workload: point i is in series i mod SERIES,
// at EPOCH + i*INTERVAL, with sequence number i+1 and value
// splitmix64(seed) number i+1, encoded as a FieldValue protobuf.
static const uint64_t EPOCH = 1403222400ULL * 1000000000ULL;
static const uint64_t INTERVAL = 1000000ULL;

static uint64_t series_count, seed, points_count;

static void put_be64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)v;
}

static uint64_t get_be64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

static void make_key(unsigned char *k, uint64_t series, uint64_t ts, uint64_t seq)
{
	put_be64(k, series);
	put_be64(k + 8, ts);
	put_be64(k + 16, seq);
}

static uint64_t value_of(uint64_t seq)
{
	uint64_t z = seed + seq * 0x9e3779b97f4a7c15ULL;
	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
	return z ^ z >> 31;
}

// encode_value writes field 5 (int64_value) as a varint; returns its size.
static size_t encode_value(unsigned char *p, uint64_t v)
{
	size_t n = 0;
	p[n++] = 5 << 3;
	for (; v >= 0x80; v >>= 7)
		p[n++] = (unsigned char)(v | 0x80);
	p[n++] = (unsigned char)v;
	return n;
}

void ts_die(const char *format, ...)
{
	va_list ap;
	va_start(ap, format);
	fputs("ts: ", stderr);
	vfprintf(stderr, format, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

static int noptions;
static char **options;
static char used[64];

long long ts_option(const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < noptions; i++) {
		if (strncmp(options[i], name, n) == 0 && options[i][n] == '=') {
			char *end;
			errno = 0;
			long long v = strtoll(options[i] + n + 1, &end, 10);
			if (errno != 0 || *end != '\0')
				ts_die("option %s is not an integer", options[i]);
			used[i] = 1;
			return v;
		}
	}
	ts_die("missing option %s=...", name);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

// thread_cpu returns the CPU time of the calling thread, user and
// system, as the harness reads it.
static double thread_cpu(void)
{
	struct rusage r;
	getrusage(RUSAGE_THREAD, &r);
	return ((double)r.ru_utime.tv_sec + (double)r.ru_stime.tv_sec) * 1e9 +
	       ((double)r.ru_utime.tv_usec + (double)r.ru_stime.tv_usec) * 1e3;
}

// paused is the time spent checking chunks inside a timed scan.
static double paused;
static int64_t read_points, errors;
// next_seq is the sequence number the scan of the current series expects.
static uint64_t cur_series, next_seq;

void ts_chunk_check(ts_chunk *c)
{
	double t0 = now();
	if (!c->copying) {
		// The series' entries, all held at once: each with a key of
		// TS_KEY bytes, and no more than the series has points (fewer
		// are counted missing after the scan).
		next_seq += (uint64_t)c->n * series_count;
		if (c->klen != (size_t)c->n * TS_KEY || next_seq > points_count + series_count)
			errors++;
		read_points += c->n;
		c->n = 0;
		c->klen = c->vlen = 0;
		paused += now() - t0;
		return;
	}
	size_t kfrom = 0, vfrom = 0;
	for (int j = 0; j < c->n; j++) {
		const unsigned char *k = c->keys + kfrom, *v = c->vals + vfrom;
		unsigned char want[TS_VALUE_MAX];
		size_t wn = encode_value(want, value_of(next_seq));
		if (c->kends[j] - kfrom != TS_KEY || get_be64(k) != cur_series ||
		    get_be64(k + 16) != next_seq ||
		    get_be64(k + 8) != EPOCH + (next_seq - 1) * INTERVAL ||
		    c->vends[j] - vfrom != wn || memcmp(v, want, wn) != 0)
			errors++;
		next_seq += series_count;
		kfrom = c->kends[j];
		vfrom = c->vends[j];
	}
	read_points += c->n;
	c->n = 0;
	c->klen = c->vlen = 0;
	paused += now() - t0;
}

// write_points writes the points, each batch generated first, then
// timed while it goes into the engine and is committed; it returns the
// time, and the thread's CPU time in *cpu.
static double write_points(void *db, int64_t points, int64_t batch, double *cpu)
{
	unsigned char *keys = malloc((size_t)batch * TS_KEY);
	unsigned char *vals = malloc((size_t)batch * TS_VALUE_MAX);
	size_t *vlens = malloc((size_t)batch * sizeof *vlens);
	if (keys == NULL || vals == NULL || vlens == NULL)
		ts_die("out of memory");
	double t = 0, cpu0 = thread_cpu();
	for (int64_t start = 0; start < points; start += batch) {
		int64_t n = points - start < batch ? points - start : batch;
		for (int64_t j = 0; j < n; j++) {
			uint64_t i = (uint64_t)(start + j);
			make_key(keys + j * TS_KEY, i % series_count, EPOCH + i * INTERVAL, i + 1);
			vlens[j] = encode_value(vals + j * TS_VALUE_MAX, value_of(i + 1));
		}
		double t0 = now();
		for (int64_t j = 0; j < n; j++)
			be_put(db, (const char *)keys + j * TS_KEY, TS_KEY,
			       (const char *)vals + j * TS_VALUE_MAX, vlens[j]);
		be_commit(db);
		t += now() - t0;
	}
	*cpu = thread_cpu() - cpu0;
	free(keys);
	free(vals);
	free(vlens);
	return t;
}

// query_series reads every series with a new bounded iterator, timed
// from its creation to its release, less the checking of full chunks; it
// returns the time, and the thread's CPU time in *cpu.
static double query_series(void *db, int64_t points, ts_chunk *chunk, double *cpu)
{
	double t = 0, cpu0 = thread_cpu();
	for (cur_series = 0; cur_series < series_count; cur_series++) {
		unsigned char lo[TS_KEY], hi[TS_KEY];
		make_key(lo, cur_series, 0, 0);
		make_key(hi, cur_series + 1, 0, 0);
		next_seq = cur_series + 1;
		paused = 0;
		double t0 = now();
		be_scan(db, (const char *)lo, (const char *)hi, chunk);
		t += now() - t0 - paused;
		if (chunk->n > 0)
			ts_chunk_check(chunk);
		// Points of this series never read are missing.
		if (next_seq <= (uint64_t)points)
			errors += (int64_t)(((uint64_t)points - next_seq) / series_count + 1);
	}
	*cpu = thread_cpu() - cpu0;
	return t;
}

int main(int argc, char **argv)
{
	const char *mode = argc < 7 ? "" : argv[6];
	int writing = strcmp(mode, "write") == 0;
	if (!writing && strcmp(mode, "copy") != 0 && strcmp(mode, "alone") != 0)
		ts_die("usage: ts DIR POINTS SERIES BATCH SEED write|copy|alone name=value...");
	const char *dir = argv[1];
	int64_t points = atoll(argv[2]), batch = atoll(argv[4]);
	points_count = (uint64_t)points;
	series_count = strtoull(argv[3], NULL, 10);
	seed = strtoull(argv[5], NULL, 10);
	static ts_chunk chunk;
	chunk.copying = strcmp(mode, "copy") == 0;
	options = argv + 7;
	noptions = argc - 7;
	if (points <= 0 || series_count == 0 || batch <= 0 || (uint64_t)batch > series_count ||
	    (uint64_t)points < series_count || noptions > (int)sizeof used)
		ts_die("bad sizes: points %s, series %s, batch %s", argv[2], argv[3], argv[4]);

	void *db = be_open(dir);
	for (int i = 0; i < noptions; i++)
		if (!used[i])
			ts_die("unknown option %s", options[i]);
	double w = 0, wcpu = 0, q = 0, qcpu = 0;
	if (writing) {
		w = write_points(db, points, batch, &wcpu);
		be_compact(db);
	} else {
		q = query_series(db, points, &chunk, &qcpu);
	}
	be_close(db);
	printf("write_ns=%.0f query_ns=%.0f write_cpu_ns=%.0f query_cpu_ns=%.0f read=%lld errors=%lld\n",
	       w, q, wcpu, qcpu, (long long)read_points, (long long)errors);
	return errors != 0;
}
