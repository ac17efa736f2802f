package bbolt

import (
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
)

var _ engine.Checkpointer = (*DB)(nil)

// Checkpoint implements engine.Checkpointer with bbolt's Tx.CopyFile: a
// copy of the file as one read transaction sees it, written while
// writers go on.
func (d *DB) Checkpoint(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return d.db.Use(func(db *bolt.DB) error {
		return kinds.Wrap(db.View(func(tx *bolt.Tx) error {
			return tx.CopyFile(filepath.Join(dir, fileName), 0o644)
		}))
	})
}
