package bbolt

import (
	"encoding/binary"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine/internal/sniff"
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
	return sniff.Magic(filepath.Join(dir, fileName), 16, binary.LittleEndian.AppendUint32(nil, boltMagic))
}
