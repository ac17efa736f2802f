// Package all links every backend into the binary that imports it:
//
//	import _ "github.com/tsbench/storage/engine/all"
//
// after which engine.Names lists leveldb, rocksdb, hyperleveldb, lmdb,
// pebble, pebble1, bbolt, goleveldb, badger, badger3, etcd, sqlite,
// kyotocabinet and cassandra, and the JVM engines of package jvm, which
// run in a process of their own (engine.Driver.Process) and only when
// they or their group "jvm" are named. Import a single backend instead to
// keep a binary small. Cassandra, pebble1 and badger3 run only when named
// (engine.Driver.OnlyByName): "all", engine.AllNames, is the others,
// since a local Cassandra cluster is JVM processes, seconds to start and
// a GiB of memory each, and pebble1 and badger3 are the older majors of
// pebble and badger, for comparing releases.
//
// The engines over C libraries need cgo. A build without it
// (CGO_ENABLED=0) links the pure-Go engines (pebble, pebble1, bbolt,
// goleveldb, badger, badger3, etcd, cassandra), and Missing names the
// others.
package all

import (
	"slices"

	"github.com/tsbench/storage/engine"
	_ "github.com/tsbench/storage/engine/badger"
	_ "github.com/tsbench/storage/engine/badger3"
	_ "github.com/tsbench/storage/engine/bbolt"
	_ "github.com/tsbench/storage/engine/cassandra"
	_ "github.com/tsbench/storage/engine/etcd"
	_ "github.com/tsbench/storage/engine/goleveldb"
	_ "github.com/tsbench/storage/engine/jvm"
	_ "github.com/tsbench/storage/engine/pebble"
	_ "github.com/tsbench/storage/engine/pebble1"
)

// cEngines are the engines over C libraries, linked by cgo.go.
var cEngines = []string{"hyperleveldb", "kyotocabinet", "leveldb", "lmdb", "rocksdb", "sqlite"}

// Missing returns the engines of this package that the binary lacks,
// sorted: the C engines in a build without cgo, none otherwise.
func Missing() []string {
	var out []string
	for _, name := range cEngines {
		if !slices.Contains(engine.Names(), name) {
			out = append(out, name)
		}
	}
	return out
}
