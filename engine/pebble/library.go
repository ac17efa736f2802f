package pebble

import pebbledb "github.com/cockroachdb/pebble/v2"

// Library runs fn with the Pebble database the engine wraps, for code
// that measures the library itself against the engine (bench's
// BenchmarkNativeGo). Calls on it bypass the engine and its checks.
func (d *DB) Library(fn func(db *pebbledb.DB) error) error { return fn(d.db) }
