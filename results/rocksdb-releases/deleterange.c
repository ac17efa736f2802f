// deleterange times the shape of the 2014 workload's delete step against
// one RocksDB library, outside the tool: 1M points of 50k series written
// and flushed, then 50k writes of one range tombstone each (the first
// half of every series), as engine/rocksdb's DeleteRange does. With PUT
// set in the environment the 50k writes are one put each instead, the
// same write path without a range tombstone. It prints the 50k writes'
// wall time and the CPU time of the thread that made them.
//
//	gcc -O2 -o deleterange deleterange.c -lrocksdb
//	LD_LIBRARY_PATH=DIR ./deleterange EMPTY_DIR
#define _GNU_SOURCE
#include <rocksdb/c.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static void be(char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = v & 0xff;
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage u;
	getrusage(RUSAGE_THREAD, &u);
	return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

static void check(char *err)
{
	if (err != NULL) {
		fprintf(stderr, "%s\n", err);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	enum { SERIES = 50000, POINTS = 20 };
	if (argc != 2) {
		fprintf(stderr, "usage: deleterange EMPTY_DIR\n");
		return 2;
	}
	char *err = NULL;
	rocksdb_options_t *o = rocksdb_options_create();
	rocksdb_options_set_create_if_missing(o, 1);
	rocksdb_t *db = rocksdb_open(o, argv[1], &err);
	check(err);
	rocksdb_writeoptions_t *wo = rocksdb_writeoptions_create();
	char k[16], hi[16], v[10] = {0};
	rocksdb_writebatch_t *b = rocksdb_writebatch_create();
	for (int p = 0; p < POINTS; p++)
		for (int s = 0; s < SERIES; s++) {
			be(k, s);
			be(k + 8, p);
			rocksdb_writebatch_put(b, k, 16, v, 10);
			if (rocksdb_writebatch_count(b) == 1000) {
				rocksdb_write(db, wo, b, &err);
				check(err);
				rocksdb_writebatch_clear(b);
			}
		}
	rocksdb_flushoptions_t *fo = rocksdb_flushoptions_create();
	rocksdb_flush(db, fo, &err);
	check(err);
	int put = getenv("PUT") != NULL;
	double t0 = now(), c0 = cpu();
	for (int s = 0; s < SERIES; s++) {
		rocksdb_writebatch_t *d = rocksdb_writebatch_create();
		be(k, s);
		if (put) {
			be(k + 8, POINTS + s);
			rocksdb_writebatch_put(d, k, 16, v, 10);
		} else {
			be(k + 8, 0);
			be(hi, s);
			be(hi + 8, POINTS / 2);
			rocksdb_writebatch_delete_range(d, k, 16, hi, 16);
		}
		rocksdb_write(db, wo, d, &err);
		check(err);
		rocksdb_writebatch_destroy(d);
	}
	printf("%s %.1f ms wall %.1f ms cpu\n", put ? "put" : "delete_range", (now() - t0) * 1e3, (cpu() - c0) * 1e3);
	rocksdb_close(db);
	return 0;
}
