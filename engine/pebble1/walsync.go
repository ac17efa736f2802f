package pebble1

import (
	"strings"

	"github.com/cockroachdb/pebble/vfs"
)

// Under the "none" sync profile every commit asks Pebble to sync, which
// makes it wait until its WAL goroutine has written the record, and
// walNoSyncFS makes that sync of the WAL file nothing: the record is in
// the page cache, safe from a process crash, without an fsync. Pebble's
// NoSync commit would return with the record queued in memory, lost by a
// kill. The engine "pebble" explains it in full (its walsync.go); this is
// the same for v1's vfs.FS, whose methods take no write category.

// walNoSyncFS is a vfs.FS whose WAL files do not sync.
type walNoSyncFS struct{ vfs.FS }

func (fs walNoSyncFS) wrap(name string, f vfs.File, err error) (vfs.File, error) {
	if err != nil || !strings.HasSuffix(fs.PathBase(name), ".log") {
		return f, err
	}
	return walFile{f}, nil
}

func (fs walNoSyncFS) Create(name string) (vfs.File, error) {
	f, err := fs.FS.Create(name)
	return fs.wrap(name, f, err)
}

func (fs walNoSyncFS) ReuseForWrite(oldname, newname string) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname)
	return fs.wrap(newname, f, err)
}

func (fs walNoSyncFS) OpenReadWrite(name string, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, opts...)
	return fs.wrap(name, f, err)
}

func (fs walNoSyncFS) Unwrap() vfs.FS { return fs.FS }

// walFile is a WAL file whose syncs do nothing: what was written is in
// the OS already.
type walFile struct{ vfs.File }

func (walFile) Sync() error                { return nil }
func (walFile) SyncData() error            { return nil }
func (walFile) SyncTo(int64) (bool, error) { return false, nil }
