package bbolt

import (
	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
)

var _ engine.MetricsReporter = (*DB)(nil)

// Metrics implements engine.MetricsReporter with the bytes of the file's
// free and pending pages (bolt.Stats.FreeAlloc). bbolt writes its whole
// free list at every commit unless no_freelist_sync is set, 8 bytes for
// each free page: 1/512 of this figure at 4 KiB pages, beside the data.
func (d *DB) Metrics() (engine.Metrics, error) {
	var m engine.Metrics
	err := d.db.Use(func(db *bolt.DB) error {
		m = engine.Metrics{engine.MetricFreeBytes: int64(db.Stats().FreeAlloc)}
		return nil
	})
	return m, err
}
