package bbolt

import (
	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
)

var _ engine.MetricsReporter = (*DB)(nil)

// Metrics implements engine.MetricsReporter with the bytes of the file's
// free and pending pages (bolt.Stats.FreeAlloc). bbolt writes its whole
// free list at every commit unless no_freelist_sync is set, so this figure
// also says what each commit writes beside the data: 8 bytes a page.
func (d *DB) Metrics() (engine.Metrics, error) {
	var m engine.Metrics
	err := d.db.Use(func(db *bolt.DB) error {
		m = engine.Metrics{engine.MetricFreeBytes: int64(db.Stats().FreeAlloc)}
		return nil
	})
	return m, err
}
