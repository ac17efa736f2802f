package levelcore

/*
#include <stdlib.h>
#include "levelcore.h"

static char *lc_property(const levelcore_ops *o, void *db, const char *name) { return o->property(db, name); }
*/
import "C"

import (
	"fmt"
	"strconv"
	"strings"
	"unsafe"

	"github.com/tsbench/storage/engine"
)

// Metrics implements engine.MetricsReporter for LevelDB and HyperLevelDB
// with what their "leveldb.stats" property holds: the one counter they
// keep that means the same as engine's, the bytes compactions and memtable
// write-outs wrote (see compactBytes). The same table gives compaction
// time only in whole seconds per level, too coarse for a benchmark step,
// and they count no stalls, cache lookups or memtable bytes
// ("leveldb.approximate-memory-usage" adds the block cache in), so those
// are absent. RocksDB's backend has its own.
func (d *DB) Metrics() (engine.Metrics, error) {
	s, err := d.Property("leveldb.stats")
	if err != nil {
		return nil, err
	}
	n, err := compactBytes(s)
	if err != nil {
		return nil, err
	}
	return engine.Metrics{engine.MetricCompactBytes: n}, nil
}

// Property returns the library's property name.
func (d *DB) Property(name string) (string, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	v := C.lc_property(d.ops, d.db, cname)
	if v == nil {
		return "", fmt.Errorf("%w: property %s unavailable", d.lib.Err, name)
	}
	defer d.free(unsafe.Pointer(v))
	return C.GoString(v), nil
}

// compactBytes returns the bytes compactions and memtable write-outs
// wrote, from the text of the "leveldb.stats" property (LevelDB and
// HyperLevelDB print the same table): the sum of its Write(MB) column,
// which the library rounds to whole MiB per level.
func compactBytes(stats string) (int64, error) {
	lines := strings.Split(stats, "\n")
	col, width := -1, 0
	var mib float64
	for _, line := range lines {
		f := strings.Fields(line)
		switch {
		case col < 0:
			for i, name := range f {
				if name == "Write(MB)" {
					col, width = i, len(f)
				}
			}
		case len(f) == 0 || strings.HasPrefix(f[0], "---"):
		case len(f) != width:
			return mibBytes(mib), nil // past the table
		default:
			v, err := strconv.ParseFloat(f[col], 64)
			if err != nil || v < 0 {
				return 0, fmt.Errorf("%w: %q", errStats, line)
			}
			mib += v
		}
	}
	if col < 0 {
		return 0, fmt.Errorf("%w: no Write(MB) column", errStats)
	}
	return mibBytes(mib), nil
}

func mibBytes(mib float64) int64 { return int64(mib * (1 << 20)) }
