package lmdb

// #include "binding.h"
import "C"

// maxIdleReads caps the finished read transactions kept for reuse. Renewing
// a reset transaction skips allocating it and claiming a reader slot under
// LMDB's reader lock, the dearest part of a Get. Each idle one keeps its
// reader slot (pinning no pages), but any reader takes an idle one before
// asking LMDB for a new slot.
const maxIdleReads = 8

// beginRead starts a read-only transaction and returns holding mapMu
// shared: the caller releases both with endRead.
func (db *DB) beginRead(op string) (*C.MDB_txn, error) {
	for {
		if err := db.readMap(); err != nil {
			return nil, err
		}
		r := C.tsb_lmdb_begin_read(db.env, db.takeIdle())
		if r.rc == 0 {
			return r.txn, nil
		}
		db.mapMu.RUnlock()
		if err := db.beginFailed(op, r.rc); err != nil {
			return nil, err
		}
	}
}

// beginFailed deals with rc, the code a read transaction failed to begin
// with, once mapMu is released. MDB_MAP_RESIZED says another process grew
// the map: this one adopts the size, and the caller tries again (nil).
func (db *DB) beginFailed(op string, rc C.int) error {
	if rc != C.MDB_MAP_RESIZED {
		return wrap(op, rc)
	}
	if err := db.lockWrites(); err != nil {
		return err
	}
	defer db.writeMu.Unlock()
	return db.resize(0)
}

// takeIdle returns an idle transaction to renew, or nil to begin a new one.
func (db *DB) takeIdle() *C.MDB_txn {
	db.idleMu.Lock()
	defer db.idleMu.Unlock()
	n := len(db.idle)
	if n == 0 {
		return nil
	}
	txn := db.idle[n-1]
	db.idle = db.idle[:n-1]
	return txn
}

// endRead ends a transaction from beginRead and releases mapMu.
func (db *DB) endRead(txn *C.MDB_txn) {
	C.mdb_txn_reset(txn)
	db.putIdle(txn)
	db.mapMu.RUnlock()
}

// putIdle keeps txn, a reset transaction, for reuse if there is room and
// ends it otherwise. Neither touches the map, so it needs no lock on it.
func (db *DB) putIdle(txn *C.MDB_txn) {
	db.idleMu.Lock()
	if len(db.idle) < maxIdleReads {
		db.idle = append(db.idle, txn)
		txn = nil
	}
	db.idleMu.Unlock()
	if txn != nil {
		C.mdb_txn_abort(txn)
	}
}

// dropIdle aborts the idle transactions, which must not outlive env. The
// caller holds mapMu exclusively with no iterator open, so no other call
// can take or return one meanwhile.
func (db *DB) dropIdle() {
	db.idleMu.Lock()
	defer db.idleMu.Unlock()
	for _, txn := range db.idle {
		C.mdb_txn_abort(txn)
	}
	db.idle = nil
}
