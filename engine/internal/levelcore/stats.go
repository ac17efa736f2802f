package levelcore

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/storage/engine"
)

// errStats is a "leveldb.stats" text this package cannot read.
var errStats = errors.New("levelcore: unexpected leveldb.stats layout")

// Metrics returns the engine.Metrics of LevelDB or HyperLevelDB from the
// text of their "leveldb.stats" property: the one counter they keep that
// means the same as engine's, the bytes compactions and memtable
// write-outs wrote (see CompactBytes). The same table gives compaction
// time only in whole seconds per level, too coarse for a benchmark step,
// and they count no stalls, cache lookups or memtable bytes
// ("leveldb.approximate-memory-usage" adds the block cache in), so those
// are absent.
func Metrics(stats string) (engine.Metrics, error) {
	n, err := CompactBytes(stats)
	if err != nil {
		return engine.Metrics{}, err
	}
	return engine.Metrics{engine.MetricCompactBytes: n}, nil
}

// CompactBytes returns the bytes compactions and memtable write-outs
// wrote, from the text of the "leveldb.stats" property (LevelDB and
// HyperLevelDB print the same table): the sum of its Write(MB) column,
// which the library rounds to whole MiB per level.
func CompactBytes(stats string) (int64, error) {
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
