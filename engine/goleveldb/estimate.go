package goleveldb

import (
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/util"

	"github.com/tsbench/storage/engine"
)

var _ engine.SizeEstimator = (*DB)(nil)

// EstimateSize implements engine.SizeEstimator with goleveldb's SizeOf:
// the span of the range in each table file. Writes still in the memtable
// are left out. SizeOf takes a nil limit for the empty key, so a range
// without an end is every table's bytes less those before start.
func (db *DB) EstimateSize(start, end []byte) (int64, error) {
	if end != nil {
		sizes, err := db.db.SizeOf([]util.Range{{Start: start, Limit: end}})
		return sizes.Sum(), kinds.Wrap(err)
	}
	var s leveldb.DBStats
	if err := db.db.Stats(&s); err != nil {
		return 0, kinds.Wrap(err)
	}
	var total int64
	for _, n := range s.LevelSizes {
		total += n
	}
	if start == nil {
		return total, nil
	}
	before, err := db.db.SizeOf([]util.Range{{Limit: start}})
	return total - before.Sum(), kinds.Wrap(err)
}
