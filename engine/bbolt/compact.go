package bbolt

import (
	"errors"
	"fmt"
	"os"

	bolt "go.etcd.io/bbolt"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/fileswap"
)

// compactSuffix names the copy Compact writes beside data.db.
const compactSuffix = ".compact"

// compactTxSize bounds the bytes copied per transaction during Compact, so
// copying a large file keeps memory flat.
const compactTxSize = 64 << 20

// Compact implements engine.Backend. bbolt never shrinks its file: freed
// pages are only reused. Compact therefore copies every live key into a
// new, densely packed file beside the old one, fsyncs it and renames it
// over data.db, whatever the bounds. Open iterators and snapshots would
// keep reading the old file, so the driver's Limits say ExclusiveCompact;
// other calls wait while it runs. The disk briefly holds both files.
func (d *DB) Compact(start, end []byte) error {
	return d.db.Exclusive(func(db **bolt.DB) error {
		tmp := d.path + compactSuffix
		if err := d.copyTo(*db, tmp); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("bbolt: compact: %w", kinds.Wrap(err))
		}
		if err := (*db).Close(); err != nil {
			os.Remove(tmp)
			return fmt.Errorf("bbolt: compact: %w", kinds.Wrap(err))
		}
		swapErr := fileswap.Replace(tmp, d.path)
		// Reopen whichever file is now data.db: the copy, or the original
		// if the rename failed.
		reopened, err := d.open()
		if err != nil {
			return fmt.Errorf("%w: %w", engine.ErrBroken, errors.Join(swapErr, err))
		}
		*db = reopened
		if swapErr != nil {
			return fmt.Errorf("bbolt: compact: %w", kinds.Wrap(swapErr))
		}
		return nil
	})
}

// copyTo writes a compacted copy of src to path and fsyncs it.
func (d *DB) copyTo(src *bolt.DB, path string) error {
	o := *d.bopts
	o.NoSync = true // one fsync at the end instead of one per transaction
	dst, err := bolt.Open(path, 0o644, &o)
	if err != nil {
		return err
	}
	err = bolt.Compact(dst, src, compactTxSize)
	if err == nil {
		err = dst.Sync()
	}
	return errors.Join(err, dst.Close())
}
