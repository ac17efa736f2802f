package lmdb

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	mdb "github.com/PowerDNS/lmdb-go/lmdb"
)

// LMDB fails a write with MDB_MAP_FULL once the data file reaches the map
// size, and its map can be resized only while this process has no write
// transaction open and nothing reads through the map. Writers therefore
// run under writeMu, and every call that reads the map (a Get, an iterator
// move) holds mapMu shared for its duration. A full map is grown by the
// writer that met it: it aborts its transaction, takes mapMu exclusively,
// which waits only for calls in flight, remaps, and runs its transaction
// again from the start. Open iterators do not block it: their read
// transactions hold no pointer into the map, and they reset their cursors
// when they see mapGen change (see iterator.go). Another process growing
// the map shows up as MDB_MAP_RESIZED when a transaction begins, and is
// adopted the same way.

// update runs op in a write transaction, growing the map and retrying
// whenever it is full, so that no write ever fails with MDB_MAP_FULL. op
// may run several times and must return LMDB's errors unwrapped.
func (db *DB) update(what string, op mdb.TxnOp) error {
	db.writeMu.Lock()
	defer db.writeMu.Unlock()
	if db.broken != nil {
		return db.broken
	}
	for {
		// Update locks the goroutine to its OS thread while the write
		// transaction lives, as LMDB requires.
		err := db.env.Update(op)
		switch {
		case err == nil:
			return nil
		case mdb.IsMapFull(err):
			err = db.resize(db.grownSize())
		case mdb.IsMapResized(err):
			err = db.resize(0)
		default:
			return wrap(what, err)
		}
		if err != nil {
			return err
		}
	}
}

// grownSize is the next map size: GrowthFactor times the current one,
// rounded up to whole pages.
func (db *DB) grownSize() int64 {
	size := float64(db.mapSize) * db.opts.GrowthFactor
	if size >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return roundToPage(max(int64(size), db.mapSize+1))
}

// resize remaps the environment to size bytes, or to the size another
// process set when size is 0. The caller holds writeMu, so no write
// transaction is open; taking mapMu waits out every read of the map.
func (db *DB) resize(size int64) error {
	db.mapMu.Lock()
	defer db.mapMu.Unlock()
	if db.broken != nil {
		return db.broken
	}
	if err := db.env.SetMapSize(size); err != nil {
		return fmt.Errorf("lmdb: grow map from %d to %d bytes: %w", db.mapSize, size, err)
	}
	db.mapGen++
	info, err := db.env.Info()
	if err != nil {
		return wrap("read environment info", err)
	}
	db.mapSize = info.MapSize
	return db.extendFile()
}

// extendFile makes the data file as long as the map, sparsely, as LMDB
// itself does with MDB_WRITEMAP. Without it, reading an empty value stored
// at the end of the file's last page crashes with SIGBUS: lmdb-go turns
// the value's pointer, one past that page, into a slice by dereferencing
// it. LMDB never uses the map's last page, so once the file covers the
// map, such a pointer always lands on a mapped page of the file.
func (db *DB) extendFile() error {
	if db.opts.WriteMap {
		return nil
	}
	path := filepath.Join(db.dir, dataFile)
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("lmdb: %w", err)
	}
	if fi.Size() < db.mapSize {
		if err := os.Truncate(path, db.mapSize); err != nil {
			return fmt.Errorf("lmdb: extend data file to the map size: %w", err)
		}
	}
	return nil
}
