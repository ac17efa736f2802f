package lmdb

import (
	mdb "github.com/PowerDNS/lmdb-go/lmdb"
)

// maxIdleReads caps the finished read transactions kept for reuse. Renewing
// a reset transaction skips allocating it and claiming a reader slot under
// LMDB's reader lock, the dearest part of a Get. Each idle one keeps its
// reader slot (pinning no pages), but any reader takes an idle one before
// asking LMDB for a new slot.
const maxIdleReads = 8

// beginRead starts a read-only transaction whose reads point into the map
// (RawRead), and returns holding mapMu shared: the caller releases it with
// endRead, or releases mapMu itself and the transaction with releaseRead.
func (db *DB) beginRead() (*mdb.Txn, error) {
	for {
		db.mapMu.RLock()
		if db.broken != nil {
			db.mapMu.RUnlock()
			return nil, db.broken
		}
		txn, err := db.takeRead()
		if err == nil {
			return txn, nil
		}
		db.mapMu.RUnlock()
		if !mdb.IsMapResized(err) {
			return nil, wrap("begin read", err)
		}
		db.writeMu.Lock()
		err = db.resize(0)
		db.writeMu.Unlock()
		if err != nil {
			return nil, err
		}
	}
}

// takeRead renews an idle transaction or begins a new one.
func (db *DB) takeRead() (*mdb.Txn, error) {
	db.idleMu.Lock()
	if n := len(db.idle); n > 0 {
		txn := db.idle[n-1]
		db.idle = db.idle[:n-1]
		db.idleMu.Unlock()
		if err := txn.Renew(); err != nil {
			txn.Abort()
			return nil, err
		}
		return txn, nil
	}
	db.idleMu.Unlock()
	txn, err := db.env.BeginTxn(nil, mdb.Readonly)
	if err != nil {
		return nil, err
	}
	txn.RawRead = true
	return txn, nil
}

// endRead ends a transaction from beginRead and releases mapMu.
func (db *DB) endRead(txn *mdb.Txn) {
	db.releaseRead(txn)
	db.mapMu.RUnlock()
}

// releaseRead ends a read transaction, keeping it for reuse if there is
// room. Neither touches the map, so it needs no lock on it.
func (db *DB) releaseRead(txn *mdb.Txn) {
	txn.Reset()
	db.idleMu.Lock()
	if len(db.idle) < maxIdleReads {
		db.idle = append(db.idle, txn)
		txn = nil
	}
	db.idleMu.Unlock()
	if txn != nil {
		txn.Abort()
	}
}

// dropIdle aborts the idle transactions, which must not outlive env. The
// caller holds mapMu exclusively with no iterator open, so no other call
// can take or return one meanwhile.
func (db *DB) dropIdle() {
	db.idleMu.Lock()
	defer db.idleMu.Unlock()
	for _, txn := range db.idle {
		txn.Abort()
	}
	db.idle = nil
}
