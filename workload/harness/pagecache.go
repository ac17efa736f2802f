package harness

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// DropPageCache makes the files under dir leave the kernel's page cache,
// so that the next reads of them come from the disk (a cold read): each
// regular file is synced, since only clean pages can be dropped, then
// advised away (posix_fadvise POSIX_FADV_DONTNEED). Pages another
// mapping holds locked, and an engine's own caches in its memory, stay.
func DropPageCache(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed as the engine works
			}
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		} else if err != nil {
			return err
		}
		defer f.Close()
		if err := unix.Fdatasync(int(f.Fd())); err != nil {
			return &fs.PathError{Op: "fdatasync", Path: path, Err: err}
		}
		if err := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED); err != nil {
			return &fs.PathError{Op: "fadvise", Path: path, Err: err}
		}
		return nil
	})
}
