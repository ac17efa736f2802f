package badger

import badgerv4 "github.com/dgraph-io/badger/v4"

// Library runs fn with the Badger database the engine wraps, which
// Compact does not swap while fn runs, for code that measures the library
// itself against the engine (bench's BenchmarkNativeGo). Calls on it
// bypass the engine and its checks.
func (d *DB) Library(fn func(db *badgerv4.DB) error) error { return d.db.Use(fn) }
