// Package all links every backend into the binary that imports it:
//
//	import _ "github.com/tsbench/storage/engine/all"
//
// after which engine.Names lists leveldb, rocksdb, hyperleveldb, lmdb,
// pebble, bbolt, goleveldb, badger, etcd, sqlite and kyotocabinet.
// Import a single backend instead to keep a binary small.
package all

import (
	_ "github.com/tsbench/storage/engine/badger"
	_ "github.com/tsbench/storage/engine/bbolt"
	_ "github.com/tsbench/storage/engine/etcd"
	_ "github.com/tsbench/storage/engine/goleveldb"
	_ "github.com/tsbench/storage/engine/hyperleveldb"
	_ "github.com/tsbench/storage/engine/kyotocabinet"
	_ "github.com/tsbench/storage/engine/leveldb"
	_ "github.com/tsbench/storage/engine/lmdb"
	_ "github.com/tsbench/storage/engine/pebble"
	_ "github.com/tsbench/storage/engine/rocksdb"
	_ "github.com/tsbench/storage/engine/sqlite"
)
