package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/tsbench/storage/engine"
)

// The series index lives in the engine beside the points, under keys that
// begin with 0xff. A point key (engine/tskey) begins with its series id,
// big-endian, and ids stay below 1<<56, so every point key begins with 0x00
// and no bounded scan of points meets the index, nor the index a point.
const (
	// indexPrefix + series name -> series id (8 bytes, big-endian) and its
	// kind (1 byte).
	indexPrefix = "\xffi"
	// indexEnd is the first key above every index entry.
	indexEnd = "\xffj"
	// nextIDKey -> the next series id to allocate (8 bytes, big-endian),
	// written in the batch that adds series, so a restart never hands an
	// id out twice.
	nextIDKey = "\xffn"
	// maxSeriesID keeps point keys below the index's 0xff prefix.
	maxSeriesID = 1<<56 - 1
)

type series struct {
	id   uint64
	kind kind
}

// index is the series index's copy in memory, read at start.
type index struct {
	mu     sync.RWMutex // guards byName and next; writes are the store's, one at a time
	byName map[string]series
	next   uint64
}

func indexKey(name string) []byte { return append([]byte(indexPrefix), name...) }

func (s series) value() []byte {
	return append(binary.BigEndian.AppendUint64(nil, s.id), byte(s.kind))
}

// loadIndex reads the series index from r.
func loadIndex(r engine.Reader) (_ *index, err error) {
	x := &index{byName: map[string]series{}, next: 1}
	switch v, err := r.Get([]byte(nextIDKey)); {
	case errors.Is(err, engine.ErrNotFound):
	case err != nil:
		return nil, fmt.Errorf("read next series id: %w", err)
	case len(v) != 8:
		return nil, fmt.Errorf("%w: next id is % x", errBadIndex, v)
	default:
		x.next = binary.BigEndian.Uint64(v)
	}
	it, err := r.NewIterator(engine.IterOptions{LowerBound: []byte(indexPrefix), UpperBound: []byte(indexEnd)})
	if err != nil {
		return nil, fmt.Errorf("read series index: %w", err)
	}
	// Close returns the iterator's error again: keep the first.
	defer func() {
		if cerr := it.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("read series index: %w", cerr)
		}
	}()
	for ok := it.First(); ok; ok = it.Next() {
		name, v := string(it.Key()[len(indexPrefix):]), it.Value()
		if len(v) != 9 || (kind(v[8]) != kindInt && kind(v[8]) != kindFloat) {
			return nil, fmt.Errorf("%w: series %q has entry % x", errBadIndex, name, v)
		}
		s := series{id: binary.BigEndian.Uint64(v), kind: kind(v[8])}
		if s.id == 0 || s.id >= x.next {
			return nil, fmt.Errorf("%w: series %q has id %d, next id is %d", errBadIndex, name, s.id, x.next)
		}
		x.byName[name] = s
	}
	if err := it.Err(); err != nil {
		return nil, fmt.Errorf("read series index: %w", err)
	}
	return x, nil
}

func (x *index) lookup(name string) (series, bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	s, ok := x.byName[name]
	return s, ok
}

// ids returns the id of every series.
func (x *index) ids() []uint64 {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make([]uint64, 0, len(x.byName))
	for _, s := range x.byName {
		out = append(out, s.id)
	}
	return out
}

// seriesEntry is one series as GET /series lists it.
type seriesEntry struct {
	Name string `json:"name"`
	ID   uint64 `json:"id"`
	Type string `json:"type"`
}

// list returns every series, sorted by name.
func (x *index) list() []seriesEntry {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make([]seriesEntry, 0, len(x.byName))
	for _, name := range slices.Sorted(maps.Keys(x.byName)) {
		s := x.byName[name]
		out = append(out, seriesEntry{Name: name, ID: s.id, Type: s.kind.String()})
	}
	return out
}

// add records series a write committed, and the next id it left.
func (x *index) add(added map[string]series, next uint64) {
	x.mu.Lock()
	defer x.mu.Unlock()
	maps.Copy(x.byName, added)
	x.next = next
}
