package engine

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// markerFile records in every engine directory which engine wrote it, so
// that opening it with another engine fails clearly instead of reading
// garbage or creating a second store beside the first. An open engine
// also holds a lock on it, so that a second open of the directory, in
// this process or another, fails with ErrLocked whatever the backend's
// own locking (LMDB's allows both).
const markerFile = "ENGINE"

// claim opens and locks dir's marker for engine name. It reports whether
// the directory is fresh: no engine has opened it yet, so the marker is
// empty until mark writes it. The caller releases the marker by closing
// the file, after removing it if its open failed on a fresh directory.
func claim(name, dir string) (f *os.File, fresh bool, err error) {
	path := filepath.Join(dir, markerFile)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, false, fmt.Errorf("engine: open %s in %s: %w (choose a writable directory)", name, dir, err)
		}
		if err := lockFile(f); err != nil {
			// The marker names the engine that holds the directory,
			// which need not be the one asked for.
			holder, _ := io.ReadAll(io.LimitReader(f, 256))
			f.Close()
			if errors.Is(err, ErrLocked) {
				if h := strings.TrimSpace(string(holder)); h != "" {
					return nil, false, fmt.Errorf("%w: %s is open as %s elsewhere", ErrLocked, dir, h)
				}
				return nil, false, fmt.Errorf("%w: %s is open elsewhere, by an engine still opening it", ErrLocked, dir)
			}
			return nil, false, fmt.Errorf("engine: open %s in %s: lock %s: %w", name, dir, markerFile, err)
		}
		// A failed first open removes the marker it created; if it did so
		// between our open and our lock, ours is no longer the marker.
		fi, ferr := f.Stat()
		pi, perr := os.Stat(path)
		if (ferr == nil && perr == nil && !os.SameFile(fi, pi)) || errors.Is(perr, os.ErrNotExist) {
			f.Close()
			continue
		}
		b, err := io.ReadAll(f)
		if err == nil {
			err = errors.Join(ferr, perr)
		}
		if err != nil {
			f.Close()
			return nil, false, fmt.Errorf("engine: open %s in %s: %w", name, dir, err)
		}
		switch owner := strings.TrimSpace(string(b)); owner {
		case "", name:
			return f, owner == "", nil
		default:
			f.Close()
			return nil, false, fmt.Errorf("%w: %s was written by %q, not %q; open it as %s or choose an empty directory", ErrWrongEngine, dir, owner, name, owner)
		}
	}
}

// mark writes name into the claimed marker of a fresh directory; it is
// written only once the engine opened, so that a failed first open does
// not claim the directory.
//
// It then makes the fresh store durable as the backend left it: the
// marker, and the names of the files and directories the backend created
// under dir and of dir itself, by an fsync of the marker, of every
// directory under dir and of dir's parent. Several libraries never fsync
// a directory (LMDB, bbolt, Kyoto Cabinet; etcd creates each member's
// data directory and its member/ and member/snap/ without one), so on a
// file system that keeps a new name only once its directory is synced, as
// POSIX allows, a power cut after their first synced commit would lose
// the whole store.
func mark(f *os.File, name string) error {
	if _, err := f.WriteAt([]byte(name+"\n"), 0); err != nil {
		return err
	}
	dir := filepath.Dir(f.Name())
	return errors.Join(f.Sync(), syncTree(dir), syncDir(filepath.Dir(dir)))
}

// syncTree fsyncs dir and every directory under it. An entry that
// vanishes during the walk (a running etcd member renames and removes its
// temporary files) is skipped: its name needs no sync.
func syncTree(dir string) error {
	var errs []error
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case errors.Is(err, fs.ErrNotExist) && path != dir:
			return nil
		case err != nil:
			return err
		case d.IsDir():
			if err := syncDir(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		return nil
	})
	return errors.Join(append(errs, err)...)
}

// syncDir fsyncs directory dir, making the names in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// unclaim releases a marker after a failed open, removing it if the
// directory was fresh.
func unclaim(f *os.File, fresh bool) {
	if fresh {
		os.Remove(f.Name())
	}
	f.Close()
}
