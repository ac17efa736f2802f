package rocksdb

// #cgo pkg-config: rocksdb
// #cgo CFLAGS: -I${SRCDIR}/../internal
// #cgo CXXFLAGS: -I${SRCDIR}/../internal
// #include <stdlib.h>
// #include "binding.h"
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/levelcore"
)

func init() {
	engine.RegisterBackend("rocksdb", open, engine.Driver{
		Version:   Version,
		Build:     Build,
		Recognize: recognize,
		Release:   installRelease,
		Expiry:    true, // RocksDB's TTL database (expiry.go)
	})
}

// DB is a RocksDB database: the LevelDB family's database
// (engine/internal/levelcore) on RocksDB's C API, with what RocksDB has
// beyond it.
type DB struct {
	*levelcore.DB
	// events counts what flushes and compactions write; the options'
	// listener owns it. Nil for a release without the listener.
	events *C.tsb_rocksdb_events
	// writeBuffer is write_buffer_size, the largest batch (Limits).
	writeBuffer int64
}

// Limits implements engine's per-backend limits: values below 4 GiB (the
// write batch's 32-bit lengths), and batches of at most one write buffer.
// RocksDB itself takes a batch of any size, whole into one memtable that
// grows past write_buffer_size for it: a 600 MiB batch took 3.9 GB of
// memory. Refused, it is committed in parts instead.
func (d *DB) Limits() engine.Limits {
	return engine.Limits{MaxValueSize: levelcore.MaxValueSize, MaxBatchSize: int(d.writeBuffer)}
}

var (
	_ engine.Backgrounder    = (*DB)(nil)
	_ engine.MetricsReporter = (*DB)(nil)
	_ engine.Checkpointer    = (*DB)(nil)
)

// lib is RocksDB as levelcore drives it.
var lib = levelcore.Library{
	Name: "rocksdb",
	Ops:  unsafe.Pointer(&C.tsb_rocksdb_ops),
	Err:  ErrLibrary,
}

// Open opens or creates a RocksDB database in dir, an existing directory,
// with opts, resolved first as engine.Open resolves them: the backend
// alone, without the directory lock and the contract's rules that
// engine.Open("rocksdb", dir, opts) adds.
func Open(dir string, opts engine.Options) (*DB, error) {
	return engine.OpenBackend[*DB]("rocksdb", dir, &opts)
}

// open is Open given opts resolved, and the backend's own options in own.
func open(dir string, opts engine.Options, own Options) (*DB, error) {
	var events *C.tsb_rocksdb_events
	db, err := levelcore.Open(libraryFor(opts.Expiry), dir, opts, levelcore.Config{
		BlockSize: own.BlockSize,
		Verify:    true, // RocksDB's default
		Tune: func(p unsafe.Pointer) error {
			o := (*C.tsb_rocksdb_options)(p).opts
			C.rocksdb_options_set_max_background_jobs(o, C.int(own.MaxBackgroundJobs))
			C.rocksdb_options_set_level_compaction_dynamic_level_bytes(o, cbool(!own.DisableDynamicLevelBytes))
			C.rocksdb_options_set_target_file_size_base(o, C.uint64_t(own.TargetFileSizeBase))
			C.rocksdb_options_set_max_bytes_for_level_base(o, C.uint64_t(own.MaxBytesForLevelBase))
			C.rocksdb_options_set_max_write_buffer_number(o, C.int(own.MaxWriteBufferNumber))
			// RocksDB reserves the MANIFEST's disk space 4 MiB at a time;
			// its version edits are a few hundred bytes, and the reserve
			// would show as the bulk of a small database's size.
			C.rocksdb_options_set_manifest_preallocation_size(o, manifestPreallocation)
			setExpiry(o, opts.Expiry)
			if C.tsb_rocksdb_can_listen() == 0 {
				return nil // a release without the listener (Release.Lacks)
			}
			if events = C.tsb_rocksdb_listen(o); events == nil {
				return errNoMemory
			}
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	return &DB{DB: db, events: events, writeBuffer: opts.WriteBufferSize}, nil
}

// handle is the RocksDB database, for the calls levelcore does not make.
func (d *DB) handle() *C.rocksdb_t { return (*C.rocksdb_t)(d.Handle()) }

func cbool(b bool) C.uchar {
	if b {
		return 1
	}
	return 0
}

// busyProperties are the RocksDB integer properties that are non-zero
// while a flush or compaction runs or is due.
var busyProperties = []string{
	"rocksdb.mem-table-flush-pending",
	"rocksdb.compaction-pending",
	"rocksdb.num-running-flushes",
	"rocksdb.num-running-compactions",
}

// Busy reports whether a flush or compaction is running or pending.
func (d *DB) Busy() (bool, error) {
	for _, p := range busyProperties {
		v, err := d.intProperty(p)
		if err != nil {
			return false, err
		}
		if v > 0 {
			return true, nil
		}
	}
	return false, nil
}

// intProperty reads an integer property.
func (d *DB) intProperty(name string) (int64, error) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	var out C.uint64_t
	if C.rocksdb_property_int(d.handle(), cname, &out) != 0 {
		return 0, fmt.Errorf("%w: property %s unavailable", ErrLibrary, name)
	}
	return int64(out), nil
}
