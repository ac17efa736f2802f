// The C side of the binding: the LevelDB-family core compiled for
// RocksDB's C API (see engine/internal/levelcore/library.h), the counts
// of an event listener, and the library version.

#ifndef TSB_ROCKSDB_BINDING_H
#define TSB_ROCKSDB_BINDING_H

#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LEVELCORE_PREFIX rocksdb
#define LEVELCORE_ROCKSDB
#include "levelcore/library.h"

// tsb_rocksdb_events counts what flushes and compactions wrote, for the
// metrics RocksDB keeps no exact counter of without its statistics; the
// listener's threads add to it atomically. Read it with
// tsb_rocksdb_events_read.
typedef struct {
	uint64_t flush_bytes;      // the sizes of the table files flushes wrote
	uint64_t compact_bytes;    // the output of compactions
	uint64_t compact_micros;   // the time compactions ran
} tsb_rocksdb_events;

// tsb_rocksdb_listen adds to o a listener that counts into the events it
// returns, or returns NULL when memory runs out. The listener owns them:
// they live until o and the database opened with it are gone.
tsb_rocksdb_events *tsb_rocksdb_listen(rocksdb_options_t *o);

// tsb_rocksdb_can_listen reports whether the loaded library has the event
// listener tsb_rocksdb_listen adds (RocksDB 10.4.2 and later of the
// releases set-up installs; not 10.0 to 10.2).
int tsb_rocksdb_can_listen(void);

// tsb_rocksdb_events_read returns a copy of e's counts, each read
// atomically.
tsb_rocksdb_events tsb_rocksdb_events_read(const tsb_rocksdb_events *e);

// tsb_rocksdb_version returns the linked library's version, like "11.8.1".
const char *tsb_rocksdb_version(void);

#ifdef __cplusplus
}
#endif

#endif
