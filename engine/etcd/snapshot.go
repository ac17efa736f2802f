package etcd

import (
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tsbench/storage/engine"
)

var _ engine.Snapshotter = (*DB)(nil)

// snapshot is a revision: etcd serves every read at any revision not yet
// compacted, so a snapshot costs one request to learn the current one.
type snapshot struct {
	d   *DB
	rev int64
}

// NewSnapshot implements engine.Snapshotter.
func (d *DB) NewSnapshot() (engine.Snapshot, error) {
	d.snapMu.RLock()
	defer d.snapMu.RUnlock()
	ctx, cancel := d.ctx()
	rev, err := d.revision(ctx)
	cancel()
	if err != nil {
		return nil, d.wrap("new snapshot", err)
	}
	d.pin(rev)
	return &snapshot{d: d, rev: rev}, nil
}

func (s *snapshot) Get(key []byte) ([]byte, error) {
	return s.d.get(key, clientv3.WithRev(s.rev))
}

func (s *snapshot) NewIterator(opts engine.IterOptions) (engine.Iterator, error) {
	// The snapshot pins its revision, so no Compact can take it away:
	// snapMu is not needed.
	return s.d.newIterator(opts, s.rev)
}

// Close releases the snapshot's revision to Compact; the engine's wrapper
// calls it once.
func (s *snapshot) Close() error {
	s.d.unpin(s.rev)
	return nil
}

// pin keeps Compact from compacting past rev until unpin.
func (d *DB) pin(rev int64) {
	d.mu.Lock()
	d.snaps[rev]++
	d.mu.Unlock()
}

func (d *DB) unpin(rev int64) {
	d.mu.Lock()
	if d.snaps[rev]--; d.snaps[rev] == 0 {
		delete(d.snaps, rev)
	}
	d.mu.Unlock()
}
