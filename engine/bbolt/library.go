package bbolt

import bolt "go.etcd.io/bbolt"

// Library runs fn with the bbolt database the engine wraps, which Compact
// does not swap while fn runs, and the name of the bucket holding every
// key, for code that measures the library itself against the engine
// (bench's BenchmarkNativeGo). Calls on it bypass the engine and its
// checks.
func (d *DB) Library(fn func(db *bolt.DB, bucket []byte) error) error {
	return d.db.Use(func(db *bolt.DB) error { return fn(db, bucket) })
}
