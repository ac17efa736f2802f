// Package fileswap replaces a single-file store with a compacted copy
// written beside it (bbolt's and LMDB's Compact): the rename is atomic,
// so an interruption leaves either the old file or the new one, both
// whole.
package fileswap

import (
	"errors"
	"os"
	"path/filepath"
)

// Replace renames the complete, synced copy at tmp over path and makes
// the rename durable. tmp is removed if the rename fails.
func Replace(tmp, path string) error {
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}
