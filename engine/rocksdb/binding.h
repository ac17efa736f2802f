// The C side of the binding: the LevelDB-family core compiled for
// RocksDB's C API (see engine/internal/levelcore/levelcore.h), and the
// library version.

#ifndef TSB_ROCKSDB_BINDING_H
#define TSB_ROCKSDB_BINDING_H

#include <rocksdb/c.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LEVELCORE_PREFIX rocksdb
#define LEVELCORE_ROCKSDB
#include "levelcore/levelcore.h"

// tsb_rocksdb_version returns the linked library's version, like "11.1.2".
const char *tsb_rocksdb_version(void);

#ifdef __cplusplus
}
#endif

#endif
