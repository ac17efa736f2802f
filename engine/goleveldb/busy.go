package goleveldb

import (
	"fmt"
	"strconv"
	"strings"
)

// Busy implements engine.Backgrounder. goleveldb does not say whether a
// compaction is running, but its "leveldb.stats" property lists each
// level's table count and size, from which Busy recomputes the score
// goleveldb compacts by: L0 tables over compaction_l0_trigger, a deeper
// level's bytes over its size limit. While a level scores 1 or more a
// table compaction is running or due. Two things stay invisible: a
// memtable flush in progress and compactions triggered by read sampling.
func (db *DB) Busy() (bool, error) {
	if err := db.guard.Enter(); err != nil {
		return false, err
	}
	defer db.guard.Exit()
	stats, err := db.db.GetProperty("leveldb.stats")
	if err != nil {
		return false, err
	}
	levels, err := parseStats(stats)
	if err != nil {
		return false, err
	}
	for _, l := range levels {
		var score float64
		if l.level == 0 {
			score = float64(l.tables) / float64(db.opt.GetCompactionL0Trigger())
		} else {
			score = l.bytes / float64(db.opt.GetCompactionTotalSize(l.level))
		}
		if score >= 1 {
			return true, nil
		}
	}
	return false, nil
}

// levelStat is one row of the "leveldb.stats" table.
type levelStat struct {
	level, tables int
	bytes         float64
}

// parseStats reads the rows of the "leveldb.stats" table, which follow
// three header lines and look like
//
//	1   |          5 |       9.01234 |       0.12345 | ...
//
// with the size in MiB.
func parseStats(s string) ([]levelStat, error) {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) < 3 {
		return nil, fmt.Errorf("%w: %q", errStats, s)
	}
	var out []levelStat
	for _, line := range lines[3:] {
		f := strings.Split(line, "|")
		if len(f) < 3 {
			return nil, fmt.Errorf("%w: %q", errStats, line)
		}
		level, err1 := strconv.Atoi(strings.TrimSpace(f[0]))
		tables, err2 := strconv.Atoi(strings.TrimSpace(f[1]))
		mib, err3 := strconv.ParseFloat(strings.TrimSpace(f[2]), 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("%w: %q", errStats, line)
		}
		out = append(out, levelStat{level: level, tables: tables, bytes: mib * (1 << 20)})
	}
	return out, nil
}
