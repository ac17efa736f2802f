package steady

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/tskey"
)

// store is where the points go: one engine (the delete and bucket
// methods), or one engine per time shard of width m.width, opened on the
// first write to it and dropped whole when it expires (the shards
// method).
type store struct {
	m      model
	single engine.Engine // nil with shards
	open   func(dir string) (engine.Engine, error)
	dir    string

	mu     sync.Mutex
	shards map[uint64]*shard
	gone   uint64 // shards below it are dropped
	opened int64  // shards opened so far
}

// shard is one engine instance of the shards method; users counts the
// writers and readers inside it, so that a drop waits for them.
type shard struct {
	n     uint64
	db    engine.Engine
	users sync.WaitGroup
}

// segment is one contiguous key range to read, in an engine.
type segment struct {
	db     engine.Engine
	lo, hi [tskey.KeySize]byte
	sh     *shard // to release, with shards
}

func (s *store) shardOf(ts uint64) uint64 { return (ts - s.m.origin) / s.m.width }

// acquire returns shard n, opening it if it is new, with one more user;
// nil if it was dropped.
func (s *store) acquire(n uint64, create bool) (*shard, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n < s.gone {
		return nil, nil
	}
	sh := s.shards[n]
	if sh == nil {
		if !create {
			return nil, nil
		}
		db, err := s.open(filepath.Join(s.dir, fmt.Sprintf("shard-%06d", n)))
		if err == nil {
			if err = checkOrder(db); err != nil {
				db.Close()
			}
		}
		if err != nil {
			return nil, fmt.Errorf("open shard %d: %w", n, err)
		}
		sh = &shard{n: n, db: db}
		s.shards[n] = sh
		s.opened++
	}
	sh.users.Add(1)
	return sh, nil
}

// dropBelow closes and deletes every shard below n, once its users are
// done, and returns how many it dropped.
func (s *store) dropBelow(n uint64) (int, error) {
	s.mu.Lock()
	var drop []*shard
	for k, sh := range s.shards {
		if k < n {
			drop = append(drop, sh)
			delete(s.shards, k)
		}
	}
	s.gone = max(s.gone, n)
	s.mu.Unlock()
	var errs []error
	for _, sh := range drop {
		sh.users.Wait()
		if err := sh.db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close shard %d: %w", sh.n, err))
		}
		if err := os.RemoveAll(filepath.Join(s.dir, fmt.Sprintf("shard-%06d", sh.n))); err != nil {
			errs = append(errs, fmt.Errorf("delete shard %d: %w", sh.n, err))
		}
	}
	return len(drop), errors.Join(errs...)
}

// engines calls f with every open engine and its shard number (0 for
// the single engine), holding none of them.
func (s *store) engines(f func(n uint64, db engine.Engine)) {
	if s.single != nil {
		f(0, s.single)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, sh := range s.shards {
		f(n, sh.db)
	}
}

// close closes every shard still open.
func (s *store) close() error {
	if s.single != nil {
		return nil
	}
	var errs []error
	s.mu.Lock()
	defer s.mu.Unlock()
	for n, sh := range s.shards {
		if err := sh.db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close shard %d: %w", n, err))
		}
	}
	return errors.Join(errs...)
}

// segments appends to segs the ranges holding series id's points with
// timestamps in [from, to), in time order, and acquires their shards.
func (s *store) segments(segs []segment, id, from, to uint64) ([]segment, error) {
	from = max(from, s.m.origin)
	if to <= from {
		return segs, nil
	}
	switch {
	case s.single != nil && !s.m.layout.BucketMajor():
		var sg segment
		sg.db = s.single
		tskey.PutKey(sg.lo[:], id, from, 0)
		tskey.PutKey(sg.hi[:], id, to, 0)
		return append(segs, sg), nil
	case s.single != nil:
		l := s.m.layout
		for b := l.Bucket(from); b <= l.Bucket(to-1); b++ {
			var sg segment
			sg.db = s.single
			tskey.PutBucketKey(sg.lo[:], b, id, max(from, l.BucketStart(b)))
			tskey.PutBucketKey(sg.hi[:], b, id, min(to, l.BucketStart(b+1)))
			segs = append(segs, sg)
		}
		return segs, nil
	}
	for n := s.shardOf(from); n <= s.shardOf(to-1); n++ {
		sh, err := s.acquire(n, false)
		if err != nil {
			return segs, err
		}
		if sh == nil {
			continue
		}
		sg := segment{db: sh.db, sh: sh}
		tskey.PutKey(sg.lo[:], id, from, 0)
		tskey.PutKey(sg.hi[:], id, to, 0)
		segs = append(segs, sg)
	}
	return segs, nil
}

// release lets go of the segments' shards.
func release(segs []segment) {
	for _, sg := range segs {
		if sg.sh != nil {
			sg.sh.users.Done()
		}
	}
}
