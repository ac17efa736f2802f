package sqlite

import (
	"path/filepath"

	"github.com/tsbench/storage/engine/internal/sniff"
)

// header opens every SQLite database file.
var header = []byte("SQLite format 3\x00")

// recognize reports whether dir holds this backend's database file
// written without engine.Open (engine.Driver.Recognize): data.sqlite
// beginning with SQLite's header.
func recognize(dir string) (bool, error) {
	return sniff.Magic(filepath.Join(dir, fileName), 0, header)
}
