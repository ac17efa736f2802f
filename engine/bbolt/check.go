package bbolt

import (
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Check implements engine.Checker with bbolt's Tx.Check: it walks every
// page reachable from the root and the freelist, and reports a page
// referenced twice, out of the file, or both used and free.
func (d *DB) Check() error {
	return d.db.Use(func(db *bolt.DB) error {
		return db.View(func(tx *bolt.Tx) error {
			var first error
			for err := range tx.Check() { // drained: Check's goroutine sends every error
				if first == nil {
					first = err
				}
			}
			return kinds.Wrap(first)
		})
	})
}

// boltMagic is the magic number of a bbolt meta page, which follows the
// 16-byte page header at the start of the file.
const boltMagic = 0xED0CDAED

// recognize reports whether dir holds a bbolt store: its data file,
// starting with a bbolt meta page.
func recognize(dir string) (bool, error) {
	f, err := os.Open(filepath.Join(dir, fileName))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	defer f.Close()
	var b [20]byte
	if _, err := io.ReadFull(f, b[:]); err != nil {
		return false, nil // too short to be one
	}
	return binary.LittleEndian.Uint32(b[16:]) == boltMagic, nil
}
