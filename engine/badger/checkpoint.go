package badger

import (
	"context"
	"errors"
	"fmt"

	badgerv4 "github.com/dgraph-io/badger/v4"

	"github.com/tsbench/storage/engine"
)

var _ engine.Checkpointer = (*DB)(nil)

// Checkpoint implements engine.Checkpointer with Badger's stream
// framework: every live entry as of one read timestamp, streamed into a
// new database in dir with the same options (what Badger's own StreamDB
// does, which only a managed-mode database may call). It is a logical
// copy, as large as the live data, written while other calls go on.
func (d *DB) Checkpoint(dir string) error {
	o := d.opts
	o.Dir, o.ValueDir = dir, dir
	out, err := badgerv4.Open(o)
	if err != nil {
		return fmt.Errorf("badger: checkpoint: %w", kinds.Wrap(err))
	}
	err = d.db.Use(func(db *badgerv4.DB) error { return stream(db, out) })
	if err = errors.Join(err, out.Close()); err != nil {
		return fmt.Errorf("badger: checkpoint: %w", kinds.Wrap(err))
	}
	return nil
}

// stream writes every live entry of src into out, a new database.
func stream(src, out *badgerv4.DB) error {
	w := out.NewStreamWriter()
	if err := w.Prepare(); err != nil {
		return err
	}
	s := src.NewStream()
	s.Send = w.Write
	if err := s.Orchestrate(context.Background()); err != nil {
		w.Cancel()
		return err
	}
	return w.Flush()
}
