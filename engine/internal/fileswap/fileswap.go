// Package fileswap replaces a file with a complete copy written beside
// it (bbolt's and LMDB's Compact, the small files backends keep beside
// their store): the rename is atomic and synced, so an interruption or a
// power cut leaves either the old file or the new one, both whole.
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

// Write makes path hold data durably, or leaves it as it was: data goes
// to a temporary file beside it, is synced, and replaces path (Replace).
func Write(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		os.Remove(tmp)
		return err
	}
	return Replace(tmp, path)
}
