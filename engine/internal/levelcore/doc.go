// Package levelcore is the LevelDB family's database, written once for the
// leveldb, hyperleveldb and rocksdb backends. Their libraries' C APIs name
// the same calls under different prefixes (leveldb_get, hyperleveldb_get,
// rocksdb_get), and cgo cannot share C types between Go packages; so
// library.h compiles, under each backend's prefix, a table of C calls
// with the library types as void * (levelcore.h), and DB drives whichever
// table its backend hands to Open. The table holds the bulk iterator
// cursor that fills package cursor's buffer (with bounds that change
// without a new iterator), the point operations, the write of a package
// cbatch batch, snapshots, the size estimate of a range, compaction,
// flush and properties.
//
// A backend keeps what its library does differently: the mapping of its
// own options (Config.Tune), its version and build, and the interfaces
// only it has. What the libraries do differently in C (RocksDB's iterate
// bounds, batch format, range tombstones, flush and compaction options)
// is selected in library.h when it is compiled for that library.
package levelcore
