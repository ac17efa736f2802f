// The C side of the binding: the LevelDB-family core compiled for
// HyperLevelDB's C API, which scripts/build-hyperleveldb.sh renames to
// hyperleveldb_* (see engine/internal/levelcore/library.h).

#ifndef TSB_HYPERLEVELDB_BINDING_H
#define TSB_HYPERLEVELDB_BINDING_H

#include <stddef.h>
#include <hyperleveldb/c.h>

// hyperleveldb_tsb_compact_range is compact_range made to give the space
// of deleted entries back in every case; it is compiled into the library
// from scripts/hyperleveldb-compact.cc, which says why.
void hyperleveldb_tsb_compact_range(hyperleveldb_t *db,
				    const char *start_key, size_t start_key_len,
				    const char *limit_key, size_t limit_key_len);

#define LEVELCORE_PREFIX hyperleveldb
#define LEVELCORE_COMPACT_RANGE hyperleveldb_tsb_compact_range
#include "levelcore/library.h"

#endif
