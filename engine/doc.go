// Package engine is one small interface over embedded, ordered key-value
// stores, chosen by name in the style of database/sql:
//
//	import _ "github.com/tsbench/storage/engine/rocksdb"
//
//	db, err := engine.Open("rocksdb", dir, nil)
//
// Every backend lives in its own package under engine/, registers itself
// from init, and passes the one acceptance suite in engine/enginetest.
// Capabilities only some engines have are small optional interfaces
// (see Flusher and Backgrounder), found by type assertion with a fallback.
//
// Keys and values are arbitrary byte strings; keys are ordered bytewise
// (bytes.Compare), so 0x00 sorts before 0xff.
//
// # Concurrency
//
// An Engine is safe for concurrent use: Get, Put, Delete, DeleteRange,
// NewIterator, NewBatch, Batch.Commit and Compact may be called from
// several goroutines at once. A Batch or an Iterator belongs to one
// goroutine at a time. Close must be called once, after every other call
// on the engine has returned and every Iterator has been closed; calls
// after Close return ErrClosed.
//
// # Ownership of byte slices
//
// Get returns a slice the caller owns. Iterator.Key and Iterator.Value
// return slices owned by the iterator, valid only until its next
// positioning call or Close: copy them to keep them. This lets an engine
// hand over entries without allocating per entry. Slices passed to Put,
// Delete and Batch methods may be reused by the caller as soon as the call
// returns.
package engine
