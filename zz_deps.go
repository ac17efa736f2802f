package deps

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/HdrHistogram/hdrhistogram-go"
	_ "github.com/PowerDNS/lmdb-go/lmdb"
	_ "github.com/cespare/xxhash/v2"
	_ "github.com/cockroachdb/pebble"
	_ "github.com/dgraph-io/badger/v4"
	_ "github.com/jmhodges/levigo"
	_ "github.com/linxGnu/grocksdb"
	_ "github.com/syndtr/goleveldb/leveldb"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/term"
	_ "google.golang.org/protobuf/encoding/protowire"
	_ "google.golang.org/protobuf/proto"
	_ "google.golang.org/protobuf/reflect/protoreflect"
	_ "google.golang.org/protobuf/runtime/protoimpl"
)
