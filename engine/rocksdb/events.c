// The event listener behind DB.Metrics (see binding.h).

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "binding.h"

// RocksDB 10.0 to 10.2 have no event listener in their C API: these are
// weak, so that such a release loads, and are NULL there
// (tsb_rocksdb_can_listen).
#pragma weak rocksdb_eventlistener_create
#pragma weak rocksdb_options_add_eventlistener
#pragma weak rocksdb_flushjobinfo_file_path
#pragma weak rocksdb_compactionjobinfo_total_output_bytes
#pragma weak rocksdb_compactionjobinfo_elapsed_micros

int tsb_rocksdb_can_listen(void)
{
	return rocksdb_eventlistener_create != NULL && rocksdb_options_add_eventlistener != NULL &&
	       rocksdb_flushjobinfo_file_path != NULL && rocksdb_compactionjobinfo_total_output_bytes != NULL &&
	       rocksdb_compactionjobinfo_elapsed_micros != NULL;
}

static void add(uint64_t *counter, uint64_t n)
{
	__atomic_fetch_add(counter, n, __ATOMIC_RELAXED);
}

static void on_flush_completed(void *state, rocksdb_t *db, const rocksdb_flushjobinfo_t *info)
{
	(void)db;
	// The flush reports its table file, not its size: stat it at once,
	// before any compaction can have consumed it.
	size_t n;
	const char *p = rocksdb_flushjobinfo_file_path(info, &n);
	char path[4096];
	struct stat st;
	if (n >= sizeof path)
		return;
	memcpy(path, p, n);
	path[n] = 0;
	if (stat(path, &st) == 0)
		add(&((tsb_rocksdb_events *)state)->flush_bytes, (uint64_t)st.st_size);
}

static void on_compaction_completed(void *state, rocksdb_t *db, const rocksdb_compactionjobinfo_t *info)
{
	(void)db;
	tsb_rocksdb_events *e = state;
	add(&e->compact_bytes, rocksdb_compactionjobinfo_total_output_bytes(info));
	add(&e->compact_micros, rocksdb_compactionjobinfo_elapsed_micros(info));
}

// The other events: the C API calls every callback it was given, so each
// needs one.
static void on_flush_begin(void *s, rocksdb_t *db, const rocksdb_flushjobinfo_t *i)
{
	(void)s, (void)db, (void)i;
}
static void on_compaction_begin(void *s, rocksdb_t *db, const rocksdb_compactionjobinfo_t *i)
{
	(void)s, (void)db, (void)i;
}
static void on_subcompaction(void *s, const rocksdb_subcompactionjobinfo_t *i)
{
	(void)s, (void)i;
}
static void on_ingested(void *s, rocksdb_t *db, const rocksdb_externalfileingestioninfo_t *i)
{
	(void)s, (void)db, (void)i;
}
static void on_background_error(void *s, uint32_t reason, rocksdb_status_ptr_t *status)
{
	(void)s, (void)reason, (void)status;
}
static void on_stall(void *s, const rocksdb_writestallinfo_t *i)
{
	(void)s, (void)i;
}
static void on_memtable_sealed(void *s, const rocksdb_memtableinfo_t *i)
{
	(void)s, (void)i;
}

tsb_rocksdb_events *tsb_rocksdb_listen(rocksdb_options_t *o)
{
	tsb_rocksdb_events *e = calloc(1, sizeof *e);
	if (e == NULL)
		return NULL;
	rocksdb_eventlistener_t *l = rocksdb_eventlistener_create(e, free,
		on_flush_begin, on_flush_completed, on_compaction_begin, on_compaction_completed,
		on_subcompaction, on_subcompaction, on_ingested, on_background_error, on_stall,
		on_memtable_sealed);
	rocksdb_options_add_eventlistener(o, l);
	return e;
}

tsb_rocksdb_events tsb_rocksdb_events_read(const tsb_rocksdb_events *e)
{
	tsb_rocksdb_events r;
	r.flush_bytes = __atomic_load_n(&e->flush_bytes, __ATOMIC_RELAXED);
	r.compact_bytes = __atomic_load_n(&e->compact_bytes, __ATOMIC_RELAXED);
	r.compact_micros = __atomic_load_n(&e->compact_micros, __ATOMIC_RELAXED);
	return r;
}
