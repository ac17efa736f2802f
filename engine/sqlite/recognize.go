package sqlite

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// header opens every SQLite database file.
var header = []byte("SQLite format 3\x00")

// recognize reports whether dir holds this backend's database file
// written without engine.Open (engine.Driver.Recognize): data.sqlite
// beginning with SQLite's header.
func recognize(dir string) (bool, error) {
	f, err := os.Open(filepath.Join(dir, fileName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	defer f.Close()
	b := make([]byte, len(header))
	if _, err := io.ReadFull(f, b); errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return bytes.Equal(b, header), nil
}
