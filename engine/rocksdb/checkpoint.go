package rocksdb

// #include <stdlib.h>
// #include "binding.h"
import "C"

import "unsafe"

// Checkpoint implements engine.Checkpointer with RocksDB's own: it flushes
// the memtables, then hard-links the table files into dir (copying them
// across file systems) and copies the small files beside them, a
// consistent copy that RocksDB opens as is.
func (d *DB) Checkpoint(dir string) error {
	var msg *C.char
	cp := C.rocksdb_checkpoint_object_create(d.handle(), &msg)
	if err := d.CError("checkpoint", unsafe.Pointer(msg)); err != nil {
		return err
	}
	defer C.rocksdb_checkpoint_object_destroy(cp)
	cdir := C.CString(dir)
	defer C.free(unsafe.Pointer(cdir))
	// Flushing at a log size of 0 means always: the copy holds tables
	// rather than logs to replay.
	C.rocksdb_checkpoint_create(cp, cdir, 0, &msg)
	return d.CError("checkpoint", unsafe.Pointer(msg))
}
