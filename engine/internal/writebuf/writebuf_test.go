package writebuf

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
)

// replay returns b's writes as "put k=v" and "del k" lines, in order.
func replay(t *testing.T, b *Buffer) []string {
	t.Helper()
	var got []string
	err := b.Each(func(key, value []byte, del bool) error {
		if del {
			got = append(got, fmt.Sprintf("del %s", key))
		} else {
			got = append(got, fmt.Sprintf("put %s=%s", key, value))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestOrderAndReset(t *testing.T) {
	var b Buffer
	for range 2 { // the second round reuses the memory Reset kept
		b.Put([]byte("a"), []byte("1"))
		b.Delete([]byte("b"))
		b.Put([]byte("a"), nil)
		b.Put([]byte("c"), []byte("3"))
		want := []string{"put a=1", "del b", "put a=", "put c=3"}
		if got := replay(t, &b); !slices.Equal(got, want) || b.Len() != len(want) {
			t.Fatalf("writes = %q (Len %d), want %q", got, b.Len(), want)
		}
		b.Reset()
		if got := replay(t, &b); b.Len() != 0 || len(got) != 0 {
			t.Fatalf("after Reset: Len %d, writes %q; want none", b.Len(), got)
		}
	}
}

func TestNoAllocsOnceGrown(t *testing.T) {
	var b Buffer
	key, value := []byte("key-0001"), make([]byte, 16)
	fill := func() {
		b.Reset()
		for range 100 {
			b.Put(key, value)
			b.Delete(key)
		}
		_ = b.Each(func(key, value []byte, del bool) error { return nil })
	}
	fill()
	if n := testing.AllocsPerRun(10, fill); n != 0 {
		t.Fatalf("filling and replaying a grown Buffer allocated %v times, want 0", n)
	}
}

func TestCommit(t *testing.T) {
	var applied []string
	var fail error
	update := func(fn func(tx *[]string) error) error {
		var tx []string
		if err := fn(&tx); err != nil {
			return err
		}
		if fail != nil {
			return fail
		}
		applied = append(applied, tx...)
		return nil
	}
	put := func(tx *[]string, key, value []byte) error {
		*tx = append(*tx, fmt.Sprintf("put %s=%s", key, value))
		return nil
	}
	del := func(tx *[]string, key []byte) error {
		*tx = append(*tx, fmt.Sprintf("del %s", key))
		return nil
	}

	var b Buffer
	b.Put([]byte("a"), []byte("1"))
	b.Delete([]byte("b"))
	fail = errors.New("disk full")
	if err := Commit(&b, update, put, del); !errors.Is(err, fail) || b.Len() != 2 || len(applied) != 0 {
		t.Fatalf("failed Commit = %v, Len %d, applied %q; want the error, 2 writes kept, none applied", err, b.Len(), applied)
	}
	fail = nil
	if err := Commit(&b, update, put, del); err != nil || b.Len() != 0 {
		t.Fatalf("Commit = %v, Len %d; want nil, 0", err, b.Len())
	}
	if want := []string{"put a=1", "del b"}; !slices.Equal(applied, want) {
		t.Fatalf("applied %q, want %q", applied, want)
	}

	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b.Put([]byte("c"), nil)
	if err := Commit(&b, update, put, del); !errors.Is(err, engine.ErrClosed) || b.Len() != 0 {
		t.Fatalf("Commit after Close = %v, Len %d; want ErrClosed, 0", err, b.Len())
	}
	if err := b.Close(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("second Close = %v, want ErrClosed", err)
	}
}

// TestBatch checks that a Batch commits through its update, put and del,
// in order, and keeps its writes when the transaction fails.
func TestBatch(t *testing.T) {
	var applied []string
	fail := errors.New("full")
	var err error
	b := NewBatch(func(fn func(*[]string) error) error {
		var tx []string
		if e := fn(&tx); e != nil || err != nil {
			return errors.Join(e, err)
		}
		applied = append(applied, tx...)
		return nil
	}, func(tx *[]string, k, v []byte) error { *tx = append(*tx, "put "+string(k)+"="+string(v)); return nil },
		func(tx *[]string, k []byte) error { *tx = append(*tx, "del "+string(k)); return nil })
	b.Put([]byte("a"), []byte("1"))
	b.Delete([]byte("b"))
	err = fail
	if e := b.Commit(); !errors.Is(e, fail) || b.Len() != 2 || applied != nil {
		t.Fatalf("failed Commit = %v, Len %d, applied %q; want the error, both writes kept, nothing applied", e, b.Len(), applied)
	}
	err = nil
	if e := b.Commit(); e != nil || b.Len() != 0 || !slices.Equal(applied, []string{"put a=1", "del b"}) {
		t.Fatalf("Commit = %v, Len %d, applied %q; want both writes in order and an empty batch", e, b.Len(), applied)
	}
	var _ engine.BackendBatch = b
}
