package memory

import "github.com/tsbench/storage/engine"

var _ engine.Snapshotter = (*DB)(nil)

// snapshot is a view of the DB's sorted slice, which writes copy instead
// of changing while it is shared.
type snapshot struct {
	view
	db *DB
}

// NewSnapshot implements engine.Snapshotter.
func (db *DB) NewSnapshot() (engine.Snapshot, error) {
	data, err := db.share()
	if err != nil {
		return nil, err
	}
	s := &snapshot{db: db}
	s.data = data
	return s, nil
}

func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, engine.ErrClosed
	}
	s.open.Add(1)
	return newIterator(s.data, opts, &s.open), nil
}

func (s *snapshot) Close() error {
	if err := s.view.Close(); err != nil {
		return err
	}
	s.db.open.Add(-1)
	return nil
}
