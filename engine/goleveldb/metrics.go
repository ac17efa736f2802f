package goleveldb

import (
	"github.com/syndtr/goleveldb/leveldb"

	"github.com/tsbench/storage/engine"
)

var _ engine.MetricsReporter = (*DB)(nil)

// Metrics implements engine.MetricsReporter from goleveldb's Stats: the
// bytes its compactions (memtable flushes included) wrote and their time,
// summed over levels, and its write delays. goleveldb counts neither
// block cache hits nor memtable bytes.
func (db *DB) Metrics() (engine.Metrics, error) {
	var s leveldb.DBStats
	if err := db.db.Stats(&s); err != nil {
		return nil, kinds.Wrap(err)
	}
	var written, took int64
	for i := range s.LevelWrite {
		written += s.LevelWrite[i]
		took += int64(s.LevelDurations[i])
	}
	return engine.Metrics{
		engine.MetricCompactBytes: written,
		engine.MetricCompactTime:  took,
		engine.MetricStalls:       int64(s.WriteDelayCount),
		engine.MetricStallTime:    int64(s.WriteDelayDuration),
	}, nil
}
