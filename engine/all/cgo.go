//go:build cgo

package all

// The engines over C libraries: their packages use cgo.
import (
	_ "github.com/tsbench/storage/engine/hyperleveldb"
	_ "github.com/tsbench/storage/engine/kyotocabinet"
	_ "github.com/tsbench/storage/engine/leveldb"
	_ "github.com/tsbench/storage/engine/lmdb"
	_ "github.com/tsbench/storage/engine/rocksdb"
	_ "github.com/tsbench/storage/engine/sqlite"
)
