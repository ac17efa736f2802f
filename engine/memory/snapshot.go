package memory

import (
	"sync"

	"github.com/tsbench/storage/engine"
)

// snapshot is a view of the DB's sorted slice, which writes copy instead
// of changing while it is shared.
type snapshot struct {
	db   *DB
	mu   sync.RWMutex // guards data and the closer's closed flag
	data []entry
	closer
}

// NewSnapshot implements engine.Snapshotter.
func (db *DB) NewSnapshot() (engine.Snapshot, error) {
	data, err := db.view()
	if err != nil {
		return nil, err
	}
	return &snapshot{db: db, data: data}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) { return get(&s.mu, &s.closer, &s.data, key) }

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
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.shut()
	if err == nil {
		s.data = nil
		s.db.open.Add(-1)
	}
	return err
}
