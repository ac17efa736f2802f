package leveldb

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
func (d *DB) Metrics() (engine.Metrics, error) {
	s := C.tsb_leveldb_stats(d.db)
	defer C.leveldb_free(unsafe.Pointer(s))
	return levelcore.Metrics(C.GoString(s))
}
