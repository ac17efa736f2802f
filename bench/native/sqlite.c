// The native yardstick's backend for SQLite, compiled with the SQLite
// that engine/sqlite links: go-sqlite3's amalgamation, with the flags
// go-sqlite3 compiles it with (the test passes both). The table, the
// statements and the pragmas are engine/sqlite's.

#include <stdio.h>
#include <stdlib.h>

#include "sqlite3-binding.h"

#include "ts.h"

typedef struct {
	sqlite3 *db;
	sqlite3_stmt *put, *begin, *begin_read, *commit, *scan;
	int pending; // a batch's transaction is open
} store;

static void check(sqlite3 *db, int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
		ts_die("%s: %s", what, sqlite3_errmsg(db));
}

static void exec(sqlite3 *db, const char *sql)
{
	check(db, sqlite3_exec(db, sql, NULL, NULL, NULL), sql);
}

static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *s;
	check(db, sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL), sql);
	return s;
}

// step runs a statement that returns no row, and resets it.
static void step(sqlite3 *db, sqlite3_stmt *s)
{
	check(db, sqlite3_step(s), sqlite3_sql(s));
	sqlite3_reset(s);
}

// The journal modes engine/sqlite takes, by the number the test passes.
static const char *const journal_modes[] = {"wal", "delete", "truncate", "persist"};

void *be_open(const char *dir)
{
	store *s = calloc(1, sizeof *s);
	char path[4096], sql[128];
	if (snprintf(path, sizeof path, "%s/data.sqlite", dir) >= (int)sizeof path)
		ts_die("path too long");
	check(s->db, sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL), "open");
	sqlite3_busy_timeout(s->db, 10000);
	long long jm = ts_option("journal_mode");
	if (jm < 0 || jm > 3)
		ts_die("journal_mode=%lld: 0 to 3", jm);
	// In engine/sqlite's order: the page size before the database
	// exists, the locking mode before WAL is entered.
	snprintf(sql, sizeof sql, "PRAGMA page_size = %lld", ts_option("page_size"));
	exec(s->db, sql);
	snprintf(sql, sizeof sql, "PRAGMA locking_mode = %s", ts_option("exclusive") ? "exclusive" : "normal");
	exec(s->db, sql);
	snprintf(sql, sizeof sql, "PRAGMA journal_mode = %s", journal_modes[jm]);
	exec(s->db, sql);
	snprintf(sql, sizeof sql, "PRAGMA synchronous = %s", ts_option("sync") ? "FULL" : "OFF");
	exec(s->db, sql);
	// A negative cache_size is in KiB.
	snprintf(sql, sizeof sql, "PRAGMA cache_size = %lld", -ts_option("cache_kib"));
	exec(s->db, sql);
	snprintf(sql, sizeof sql, "PRAGMA wal_autocheckpoint = %lld", ts_option("wal_autocheckpoint"));
	exec(s->db, sql);
	exec(s->db, "CREATE TABLE IF NOT EXISTS kv(k BLOB PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID");
	s->put = prepare(s->db, "INSERT OR REPLACE INTO kv(k, v) VALUES(?1, ?2)");
	s->begin = prepare(s->db, "BEGIN IMMEDIATE");
	s->begin_read = prepare(s->db, "BEGIN");
	s->commit = prepare(s->db, "COMMIT");
	s->scan = prepare(s->db, "SELECT k, v FROM kv WHERE k >= ?1 AND k < ?2 ORDER BY k");
	return s;
}

void be_put(void *db, const char *k, size_t klen, const char *v, size_t vlen)
{
	store *s = db;
	if (!s->pending) {
		step(s->db, s->begin);
		s->pending = 1;
	}
	check(s->db, sqlite3_bind_blob64(s->put, 1, k, klen, SQLITE_STATIC), "bind");
	check(s->db, sqlite3_bind_blob64(s->put, 2, v, vlen, SQLITE_STATIC), "bind");
	step(s->db, s->put);
}

void be_commit(void *db)
{
	store *s = db;
	step(s->db, s->commit);
	s->pending = 0;
}

// As engine/sqlite's Compact: VACUUM, then the log truncated into the file.
void be_compact(void *db)
{
	store *s = db;
	exec(s->db, "VACUUM");
	check(s->db, sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL), "checkpoint");
}

// A read transaction per scan, as an iterator of engine/sqlite holds one.
void be_scan(void *db, const char *lo, const char *hi, ts_chunk *c)
{
	store *s = db;
	step(s->db, s->begin_read);
	check(s->db, sqlite3_bind_blob64(s->scan, 1, lo, TS_KEY, SQLITE_STATIC), "bind");
	check(s->db, sqlite3_bind_blob64(s->scan, 2, hi, TS_KEY, SQLITE_STATIC), "bind");
	int rc;
	while ((rc = sqlite3_step(s->scan)) == SQLITE_ROW)
		ts_chunk_add(c, sqlite3_column_blob(s->scan, 0), (size_t)sqlite3_column_bytes(s->scan, 0),
			     sqlite3_column_blob(s->scan, 1), (size_t)sqlite3_column_bytes(s->scan, 1));
	check(s->db, rc, "scan");
	sqlite3_reset(s->scan);
	step(s->db, s->commit);
}

void be_close(void *db)
{
	store *s = db;
	sqlite3_stmt *all[] = {s->put, s->begin, s->begin_read, s->commit, s->scan};
	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		sqlite3_finalize(all[i]);
	check(s->db, sqlite3_close(s->db), "close");
	free(s);
}
