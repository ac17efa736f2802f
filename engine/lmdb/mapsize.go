package lmdb

// #include "binding.h"
import "C"

import (
	"fmt"
	"math"
)

// LMDB fails a write with MDB_MAP_FULL once the data file reaches the map
// size, and its map can be resized only while this process has no write
// transaction open and nothing reads through the map. Writers therefore
// run under writeMu, and every call that reads the map (a Get, an iterator
// fill) holds mapMu shared for its duration. A full map is grown by the
// writer that met it: its transaction has been aborted, it takes mapMu
// exclusively, which waits only for calls in flight, remaps, and runs its
// transaction again from the start. Open iterators do not block it: their
// read transactions hold no pointer into the map, and they renew their
// cursors when they see mapGen change (see iterator.go). Another process
// growing the map shows up as MDB_MAP_RESIZED when a transaction begins,
// and is adopted the same way.

// update runs write, which runs one write transaction in one cgo call (so
// on one OS thread, as LMDB requires) and returns LMDB's code, growing the
// map and retrying whenever it is full, so that no write ever fails with
// MDB_MAP_FULL.
func (db *DB) update(op string, write func() C.int) error {
	if err := db.lockWrites(); err != nil {
		return err
	}
	defer db.writeMu.Unlock()
	for {
		var err error
		switch rc := write(); rc {
		case 0:
			return nil
		case C.MDB_MAP_FULL:
			err = db.resize(db.grownSize())
		case C.MDB_MAP_RESIZED:
			err = db.resize(0)
		default:
			return wrap(op, rc)
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
// process set when size is 0. The caller holds writeMu from lockWrites,
// so no write transaction is open and env is there; taking mapMu waits
// out every read of the map.
func (db *DB) resize(size int64) error {
	db.mapMu.Lock()
	defer db.mapMu.Unlock()
	if rc := C.mdb_env_set_mapsize(db.env, C.size_t(size)); rc != 0 {
		return fmt.Errorf("lmdb: grow map from %d to %d bytes: %w", db.mapSize, size, kinds.Wrap(status(rc)))
	}
	db.mapGen++
	db.mapSize = int64(C.tsb_lmdb_mapsize(db.env))
	return nil
}
