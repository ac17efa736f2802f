package hyperleveldb

// #include "binding.h"
import "C"

import (
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

// Metrics implements engine.MetricsReporter with what "leveldb.stats"
// holds: the bytes compactions and memtable write-outs wrote, to the MiB
// (see levelcore.Metrics for what is absent and why).
func (db *DB) Metrics() (engine.Metrics, error) {
	s := C.tsb_hyperleveldb_stats(db.db)
	defer C.hyperleveldb_free(unsafe.Pointer(s))
	return levelcore.Metrics(C.GoString(s))
}
