package badger

import (
	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
)

var _ engine.MetricsReporter = (*DB)(nil)

// Metrics implements engine.MetricsReporter with the block cache's hits,
// misses and bytes held, which Badger counts whatever its metrics option;
// the rest
// of its metrics, off here since they cost time on every read, are not
// reported.
func (d *DB) Metrics() (engine.Metrics, error) {
	out := engine.Metrics{}
	err := d.db.Use(func(db *badgerv4.DB) error {
		if m := db.BlockCacheMetrics(); m != nil { // nil: no block cache
			out[engine.MetricCacheHits] = int64(m.Hits())
			out[engine.MetricCacheMisses] = int64(m.Misses())
			// The cache's cost is the blocks' bytes.
			out[engine.MetricCacheBytes] = int64(m.CostAdded() - m.CostEvicted())
		}
		return nil
	})
	return out, err
}
