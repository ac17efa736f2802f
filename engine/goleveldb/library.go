package goleveldb

import "github.com/syndtr/goleveldb/leveldb"

// Library runs fn with the goleveldb database the engine wraps, for code
// that measures the library itself against the engine (bench's
// BenchmarkNativeGo). Calls on it bypass the engine and its checks.
func (d *DB) Library(fn func(db *leveldb.DB) error) error { return fn(d.db) }
