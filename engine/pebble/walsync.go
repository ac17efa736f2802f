package pebble

import (
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// Pebble's NoSync commit returns as soon as its WAL record is queued in
// memory; Pebble's WAL goroutine writes it to the file moments later. A
// process killed in between loses commits that were acknowledged (the
// crash check lost 781 of 37,939 batches in 10 kills), which breaks the
// shared "none" profile: a commit reaches the OS before it returns.
//
// So under "none" every commit asks Pebble to sync, which makes it wait
// until the WAL goroutine has written the record with write(2), and
// walNoSyncFS turns that sync of the WAL file into nothing: the record
// is in the page cache, safe from a process crash, without an fsync.
// Concurrent commits share one write, as they share one fsync under
// "batch". Tables, the MANIFEST and directories still sync as Pebble
// wants.

// walNoSyncFS is a vfs.FS whose WAL files do not sync.
type walNoSyncFS struct{ vfs.FS }

// isWAL reports whether name is a write-ahead log file: 000123.log, or
// 000123-001.log for a failover segment.
func isWAL(name string) bool { return strings.HasSuffix(name, ".log") }

func (fs walNoSyncFS) wrap(name string, f vfs.File, err error) (vfs.File, error) {
	if err != nil || !isWAL(fs.PathBase(name)) {
		return f, err
	}
	return walFile{f}, nil
}

func (fs walNoSyncFS) Create(name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, c)
	return fs.wrap(name, f, err)
}

func (fs walNoSyncFS) ReuseForWrite(oldname, newname string, c vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, c)
	return fs.wrap(newname, f, err)
}

func (fs walNoSyncFS) OpenReadWrite(name string, c vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, c, opts...)
	return fs.wrap(name, f, err)
}

func (fs walNoSyncFS) Unwrap() vfs.FS { return fs.FS }

// walFile is a WAL file whose syncs do nothing: what was written is in
// the OS already.
type walFile struct{ vfs.File }

func (walFile) Sync() error                { return nil }
func (walFile) SyncData() error            { return nil }
func (walFile) SyncTo(int64) (bool, error) { return false, nil }
