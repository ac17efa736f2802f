// hyperleveldb_tsb_compact_range: a CompactRange that also cleans tables
// the C API's compact_range never rewrites. scripts/build-hyperleveldb.sh
// compiles it into libhyperleveldb.so with the library's own flags, so the
// names here are renamed like the rest (leveldb:: becomes hyperleveldb::).
//
// CompactRange merges every level holding keys of the range into the
// deepest such level, but never rewrites that level itself. A table the
// memtable flush placed straight there (HyperLevelDB pushes a flush down to
// level 2 when nothing overlaps it) keeps every put it holds next to the
// deletes that shadow them, so deleting data that still fit in the
// memtable and compacting gave no space back. When every table sits in one
// level, nothing is merged, so that level is instead compacted one level
// down (unless it is the last), which drops the deleted entries. Otherwise
// plain CompactRange runs, at the library's own cost.

#include <stdio.h>
#include <string>

#include "db/db_impl.h"
#include "db/dbformat.h"
#include "hyperleveldb/c.h"

// The C API's handle, defined identically in db/c.cc.
struct leveldb_t {
  leveldb::DB* rep;
};

extern "C" void hyperleveldb_tsb_compact_range(leveldb_t* db,
                                               const char* start_key, size_t start_key_len,
                                               const char* limit_key, size_t limit_key_len) {
  using leveldb::Slice;
  // DB::Open only ever makes a DBImpl.
  leveldb::DBImpl* impl = static_cast<leveldb::DBImpl*>(db->rep);
  Slice a, b;
  const Slice* begin = start_key ? (a = Slice(start_key, start_key_len), &a) : NULL;
  const Slice* end = limit_key ? (b = Slice(limit_key, limit_key_len), &b) : NULL;

  impl->TEST_CompactMemTable();
  int levels = 0, deepest = -1;
  for (int level = 0; level < leveldb::config::kNumLevels; level++) {
    char property[64];
    snprintf(property, sizeof property, "leveldb.num-files-at-level%d", level);
    std::string files;
    if (impl->GetProperty(property, &files) && files != "0") {
      levels++;
      deepest = level;
    }
  }
  if (levels == 1 && deepest < leveldb::config::kNumLevels - 1) {
    impl->TEST_CompactRange(deepest, begin, end);
  } else {
    impl->CompactRange(begin, end);
  }
}
