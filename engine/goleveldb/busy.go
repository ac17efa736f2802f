package goleveldb

import (
	"github.com/syndtr/goleveldb/leveldb"

	"github.com/tsbench/storage/engine"
)

var _ engine.Backgrounder = (*DB)(nil)

// Busy implements engine.Backgrounder. goleveldb does not say whether a
// compaction is running, but its Stats give each level's table count and
// size, from which Busy recomputes the score goleveldb compacts by: L0
// tables over compaction_l0_trigger, a deeper level's bytes over its size
// limit. While a level scores 1 or more a table compaction is running or
// due. Two things stay invisible: a memtable flush in progress and
// compactions triggered by read sampling.
func (db *DB) Busy() (bool, error) {
	var s leveldb.DBStats
	if err := db.db.Stats(&s); err != nil {
		return false, kinds.Wrap(err)
	}
	for level, size := range s.LevelSizes {
		var score float64
		if level == 0 {
			score = float64(s.LevelTablesCounts[0]) / float64(db.opt.GetCompactionL0Trigger())
		} else {
			score = float64(size) / float64(db.opt.GetCompactionTotalSize(level))
		}
		if score >= 1 {
			return true, nil
		}
	}
	return false, nil
}
