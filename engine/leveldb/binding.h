// The C side of the binding: the LevelDB-family core compiled for LevelDB
// (see engine/internal/levelcore/library.h).

#ifndef TSB_LEVELDB_BINDING_H
#define TSB_LEVELDB_BINDING_H

#include <leveldb/c.h>

#define LEVELCORE_PREFIX leveldb
#include "levelcore/library.h"

#endif
