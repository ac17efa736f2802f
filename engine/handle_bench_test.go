package engine_test

import (
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// The benchmarks run each operation on a bare backend and on the same
// backend behind Open, side by side, so that the difference is what the
// wrapper costs. Two backends: engine/memory, and nop, which does nothing
// at all, so that its wrapped figure is the wrapper's cost alone.
func init() {
	engine.Register("benchnop", engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) { return nop{}, nil }})
	engine.Register("benchmem", engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil }})
}

const benchKeys = 1024

func benchKey(i int) []byte { return fmt.Appendf(nil, "key/%06d", i%benchKeys) }

// benchBoth runs f on each backend, bare and wrapped, with benchKeys keys.
func benchBoth(b *testing.B, f func(b *testing.B, db engine.Engine)) {
	for _, c := range []struct {
		name   string
		bare   func() engine.Engine
		driver string
	}{
		{"nop", func() engine.Engine { return nop{} }, "benchnop"},
		{"memory", func() engine.Engine { return memory.New() }, "benchmem"},
	} {
		run := func(mode string, db engine.Engine) {
			defer db.Close()
			for i := range benchKeys {
				db.Put(benchKey(i), []byte("value of 16 byte"))
			}
			b.Run(c.name+"/"+mode, func(b *testing.B) { f(b, db) })
		}
		run("bare", c.bare())
		db, err := engine.Open(c.driver, b.TempDir(), nil)
		if err != nil {
			b.Fatal(err)
		}
		run("wrapped", db)
	}
}

func BenchmarkGet(b *testing.B) {
	benchBoth(b, func(b *testing.B, db engine.Engine) {
		keys := make([][]byte, benchKeys)
		for i := range keys {
			keys[i] = benchKey(i)
		}
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if _, err := db.Get(keys[i%benchKeys]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkPut(b *testing.B) {
	benchBoth(b, func(b *testing.B, db engine.Engine) {
		key, value := benchKey(7), []byte("value of 16 byte")
		for b.Loop() {
			if err := db.Put(key, value); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkBatchPut is per put, committing every 100.
func BenchmarkBatchPut(b *testing.B) {
	benchBoth(b, func(b *testing.B, db engine.Engine) {
		batch := db.NewBatch()
		defer batch.Close()
		value := []byte("value of 16 byte")
		keys := make([][]byte, benchKeys)
		for i := range keys {
			keys[i] = benchKey(i)
		}
		for i := 0; b.Loop(); i++ {
			batch.Put(keys[i%benchKeys], value)
			if batch.Len() == 100 {
				if err := batch.Commit(); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// BenchmarkIterNext is per step of a full scan; an iterator is opened per
// scan of benchKeys entries.
func BenchmarkIterNext(b *testing.B) {
	benchBoth(b, func(b *testing.B, db engine.Engine) {
		var it engine.Iterator
		ok := false
		for b.Loop() {
			if !ok {
				if it != nil {
					it.Close()
				}
				it, _ = db.NewIterator(engine.IterOptions{})
				ok = it.First()
				continue
			}
			_ = it.Key()
			ok = it.Next()
		}
		it.Close()
	})
}

// nop is a backend that stores nothing and iterates over benchKeys
// copies of one entry.
type nop struct{}

var nopValue = []byte("value of 16 byte")

func (nop) Get([]byte) ([]byte, error)                              { return nopValue, nil }
func (nop) Put(_, _ []byte) error                                   { return nil }
func (nop) Delete([]byte) error                                     { return nil }
func (nop) DeleteRange(_, _ []byte) error                           { return nil }
func (nop) NewBatch() engine.Batch                                  { return &nopBatch{} }
func (nop) NewIterator(engine.IterOptions) (engine.Iterator, error) { return &nopIter{}, nil }
func (nop) Compact(_, _ []byte) error                               { return nil }
func (nop) Close() error                                            { return nil }

type nopBatch struct{ n, size int }

func (b *nopBatch) Put(k, v []byte) { b.n, b.size = b.n+1, b.size+len(k)+len(v) }
func (b *nopBatch) Delete(k []byte) { b.n, b.size = b.n+1, b.size+len(k) }
func (b *nopBatch) Len() int        { return b.n }
func (b *nopBatch) Size() int       { return b.size }
func (b *nopBatch) Reset()          { b.n, b.size = 0, 0 }
func (b *nopBatch) Commit() error   { b.Reset(); return nil }
func (b *nopBatch) Close() error    { return nil }

type nopIter struct{ pos int }

func (i *nopIter) First() bool      { i.pos = 0; return true }
func (i *nopIter) Last() bool       { i.pos = benchKeys - 1; return true }
func (i *nopIter) Seek([]byte) bool { return i.First() }
func (i *nopIter) Next() bool       { i.pos++; return i.Valid() }
func (i *nopIter) Prev() bool       { i.pos--; return i.Valid() }
func (i *nopIter) Valid() bool      { return i.pos >= 0 && i.pos < benchKeys }
func (i *nopIter) Key() []byte      { return nopValue }
func (i *nopIter) Value() []byte    { return nopValue }
func (i *nopIter) Err() error       { return nil }
func (i *nopIter) Close() error     { return nil }
