package memory_test

import (
	"errors"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// The shared suite runs memory behind engine.Open, which enforces the
// rules on Close itself; these check that memory.New keeps them alone, as
// the tests that use it without Open rely on.

func TestCloseRules(t *testing.T) {
	db := memory.New()
	db.Put([]byte("a"), []byte("1"))
	it, err := db.NewIterator(engine.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := db.NewSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	sit, err := s.NewIterator(engine.IterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	db.Put([]byte("a"), []byte("2"))
	if v, err := s.Get([]byte("a")); err != nil || string(v) != "1" {
		t.Fatalf("snapshot Get = %q, %v; want the value from before", v, err)
	}
	if err := s.Close(); !errors.Is(err, engine.ErrOpenIterators) {
		t.Fatalf("snapshot Close with its iterator open = %v, want ErrOpenIterators", err)
	}
	if err := sit.Close(); err != nil {
		t.Fatal(err)
	}
	for _, step := range []struct {
		name  string
		close func() error
		want  error
	}{
		{"Close with an iterator and a snapshot open", db.Close, engine.ErrOpenIterators},
		{"iterator Close", it.Close, nil},
		{"Close with a snapshot open", db.Close, engine.ErrOpenIterators},
		{"snapshot Close", s.Close, nil},
		{"snapshot Close again", s.Close, engine.ErrClosed},
		{"Close", db.Close, nil},
		{"Close again", db.Close, engine.ErrClosed},
	} {
		if err := step.close(); !errors.Is(err, step.want) || (err == nil) != (step.want == nil) {
			t.Fatalf("%s = %v, want %v", step.name, err, step.want)
		}
	}
	if _, err := db.Get([]byte("a")); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("Get after Close = %v", err)
	}
	if _, err := db.NewSnapshot(); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("NewSnapshot after Close = %v", err)
	}
	if _, err := s.Get([]byte("a")); !errors.Is(err, engine.ErrClosed) {
		t.Errorf("snapshot Get after its Close = %v", err)
	}
	b := db.NewBatch()
	b.Put([]byte("b"), nil)
	if err := b.Commit(); !errors.Is(err, engine.ErrClosed) || b.Len() != 1 {
		t.Errorf("Commit after Close = %v with Len %d, want ErrClosed and the batch unchanged", err, b.Len())
	}
}

func TestBatchSizeAndReset(t *testing.T) {
	db := memory.New()
	defer db.Close()
	b := db.NewBatch()
	b.Put([]byte("ab"), []byte("cde"))
	b.Delete([]byte("f"))
	if b.Len() != 2 || b.Size() != 6 {
		t.Fatalf("Len %d, Size %d; want 2, 6", b.Len(), b.Size())
	}
	b.Reset()
	if err := b.Commit(); err != nil || b.Len() != 0 || b.Size() != 0 {
		t.Fatalf("after Reset and Commit: %v, Len %d, Size %d", err, b.Len(), b.Size())
	}
	if _, err := db.Get([]byte("ab")); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("a Reset put was applied: %v", err)
	}
}

func TestSetBoundsKeepsView(t *testing.T) {
	db := memory.New()
	defer db.Close()
	db.Put([]byte("a"), nil)
	db.Put([]byte("c"), nil)
	it, _ := db.NewIterator(engine.IterOptions{UpperBound: []byte("b")})
	db.Put([]byte("d"), nil)
	if err := it.(engine.BoundsSetter).SetBounds(engine.IterOptions{LowerBound: []byte("b")}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for ok := it.First(); ok; ok = it.Next() {
		got = append(got, string(it.Key()))
	}
	if len(got) != 1 || got[0] != "c" {
		t.Fatalf("after SetBounds([b, nil)) the iterator reads %q, want [c]: its view predates d", got)
	}
	it.Close()
}
