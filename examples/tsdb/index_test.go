package main

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/tsbench/storage/engine/memory"
)

// TestBadIndex checks that an index the engine holds but that cannot be
// right is refused at start rather than served.
func TestBadIndex(t *testing.T) {
	next := func(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }
	for _, c := range []struct {
		why  string
		puts map[string][]byte
	}{
		{"an id at the next id", map[string][]byte{nextIDKey: next(3), indexPrefix + "cpu v": series{3, kindInt}.value()}},
		{"an entry and no next id", map[string][]byte{indexPrefix + "cpu v": series{1, kindInt}.value()}},
		{"an unknown type", map[string][]byte{nextIDKey: next(3), indexPrefix + "cpu v": series{1, 'x'}.value()}},
		{"a short entry", map[string][]byte{nextIDKey: next(3), indexPrefix + "cpu v": {1}}},
		{"a short next id", map[string][]byte{nextIDKey: {1}}},
	} {
		db := memory.New()
		for k, v := range c.puts {
			if err := db.Put([]byte(k), v); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := loadIndex(db); !errors.Is(err, errBadIndex) {
			t.Errorf("%s: loadIndex = %v, want errBadIndex", c.why, err)
		}
		db.Close()
	}

	db := memory.New()
	defer db.Close()
	db.Put([]byte(nextIDKey), next(3))
	db.Put([]byte(indexPrefix+"cpu v"), series{2, kindFloat}.value())
	x, err := loadIndex(db)
	if err != nil || x.next != 3 || len(x.byName) != 1 || x.byName["cpu v"] != (series{2, kindFloat}) {
		t.Errorf("loadIndex = %+v, %v; want one float series of id 2, next id 3", x, err)
	}
}
