// Package fileswap replaces a file with a complete copy written beside
// it (bbolt's and LMDB's Compact, the small files backends keep beside
// their store, such as a cluster's layout in JSON): the rename is atomic
// and synced, so an interruption or a power cut leaves either the old
// file or the new one, both whole.
package fileswap

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
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

// WriteJSON writes v to path as indented JSON, durably (Write).
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		return err
	}
	return Write(path, append(b, '\n'))
}

// ErrDamaged is wrapped by ReadJSON's error for a file that is not the
// JSON of v.
var ErrDamaged = errors.New("damaged")

// ReadJSON reads path, written by WriteJSON, into v; ok is false when
// there is no such file. A file that does not decode gives an error
// wrapping ErrDamaged.
func ReadJSON(path string, v any) (ok bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%w: %w", ErrDamaged, err)
	}
	return true, nil
}
