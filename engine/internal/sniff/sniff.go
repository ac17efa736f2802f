// Package sniff tells a store by its files, for the backends'
// Driver.Recognize: which files a directory holds, the magic bytes a file
// holds, and the version key an OPTIONS file names. A file that is
// missing or too short is an answer (no), not an error.
package sniff

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Files reports whether dir holds every one of names.
func Files(dir string, names ...string) (bool, error) {
	for _, name := range names {
		if _, err := os.Stat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
			return false, nil
		} else if err != nil {
			return false, err
		}
	}
	return true, nil
}

// Magic reports whether the file at path holds magic at offset off.
func Magic(path string, off int64, magic []byte) (bool, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(magic))
	if _, err := f.ReadAt(b, off); errors.Is(err, io.EOF) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return bytes.Equal(b, magic), nil
}

// Options reports whether one of dir's OPTIONS-* files holds key, the
// line that names the version of the library that wrote it: RocksDB and
// Pebble write such files, each with a key of its own.
func Options(dir, key string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, err
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "OPTIONS-") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return false, err
		}
		if strings.Contains(string(b), key) {
			return true, nil
		}
	}
	return false, nil
}
