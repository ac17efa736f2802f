package rocksdb

// #include "binding.h"
// extern levelcore_ops tsb_rocksdb_expiry_ops;
// void tsb_rocksdb_expiry_init(void);
import "C"

import (
	"sync"
	"time"
	"unsafe"

	"github.com/tsbench/storage/engine/internal/levelcore"
)

// expiryLib is RocksDB as levelcore drives it with engine.Options.Expiry:
// the same calls, but the database opens as RocksDB's TTL database
// (rocksdb_open_with_ttl). Its Get and iterators hide the write time
// each value carries; they still return an entry past its TTL until a
// compaction drops it.
var expiryLib = sync.OnceValue(func() *levelcore.Library {
	C.tsb_rocksdb_expiry_init()
	l := lib
	l.Ops = unsafe.Pointer(&C.tsb_rocksdb_expiry_ops)
	return &l
})

// libraryFor is the library a database with expiry opens with: lib
// without one, expiryLib with one.
func libraryFor(expiry time.Duration) *levelcore.Library {
	if expiry == 0 {
		return &lib
	}
	return expiryLib()
}

// setExpiry sets the TTL, in seconds, in o, the options the database
// opens with: the TTL database reads it there, and compactions pick the
// files above the last level holding data that old, so that entries
// expire even where no write would have compacted them.
func setExpiry(o *C.rocksdb_options_t, expiry time.Duration) {
	if expiry > 0 {
		C.rocksdb_options_set_ttl(o, C.uint64_t(expiry/time.Second))
	}
}
