package enginetest

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

func testEmptyValue(t *testing.T, db engine.Engine) {
	put(t, db, "a", "")
	put(t, db, "b", "x")
	wantGet(t, db, "a", "")
	wantScan(t, db, nil, nil, []kv{{"a", ""}, {"b", "x"}})
	b := newBatch(t, db)
	b.Put([]byte("b"), nil)
	commit(t, b)
	wantGet(t, db, "b", "")
	wantScan(t, db, nil, nil, []kv{{"a", ""}, {"b", ""}})
}

// randomBytes returns n incompressible bytes, the same for the same seed.
func randomBytes(seed uint64, n int) []byte {
	b := make([]byte, n)
	var s [32]byte
	binary.LittleEndian.PutUint64(s[:], seed)
	rand.NewChaCha8(s).Read(b)
	return b
}

func testLargeValue(t *testing.T, db engine.Engine) {
	big := string(randomBytes(1, 1<<20))
	put(t, db, "a", "small")
	put(t, db, "big", big)
	put(t, db, "c", "small")
	wantGet(t, db, "big", big)
	b := newBatch(t, db)
	big2 := string(randomBytes(2, 1<<20))
	b.Put([]byte("big2"), []byte(big2))
	b.Put([]byte("big3"), []byte(big))
	commit(t, b)
	want := []kv{{"a", "small"}, {"big", big}, {"big2", big2}, {"big3", big}, {"c", "small"}}
	wantScan(t, db, nil, nil, want)
	put(t, db, "big", "shrunk")
	wantGet(t, db, "big", "shrunk")
	want[1].v = "shrunk"
	wantScan(t, db, nil, nil, want)
}

func testOverwrite(t *testing.T, db engine.Engine) {
	putAll(t, db, "a", "b", "c")
	put(t, db, "b", "second, longer value")
	wantGet(t, db, "b", "second, longer value")
	put(t, db, "b", "3")
	wantGet(t, db, "b", "3")
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"b", "3"}, {"c", "vc"}})
}

func testDelete(t *testing.T, db engine.Engine) {
	putAll(t, db, "a", "b", "c")
	del(t, db, "b")
	wantMissing(t, db, "b")
	del(t, db, "b")             // deleting again is not an error
	del(t, db, "never written") // nor is deleting an absent key
	wantScan(t, db, nil, nil, []kv{{"a", "va"}, {"c", "vc"}})
	put(t, db, "b", "again")
	wantGet(t, db, "b", "again")
}

func testDeleteRange(t *testing.T, db engine.Engine) {
	all := putAll(t, db, "a", "b", "b\x00", "c", "d", "e", "\xff")

	deleteRange(t, db, "c", "c")         // empty range
	deleteRange(t, db, "c\x00", "c\xff") // covers no key
	wantScan(t, db, nil, nil, all)

	deleteRange(t, db, "b", "c") // start inclusive, end exclusive
	wantMissing(t, db, "b")
	wantMissing(t, db, "b\x00")
	wantGet(t, db, "a", "va")
	wantGet(t, db, "c", "vc")
	wantScan(t, db, nil, nil, []kv{all[0], all[3], all[4], all[5], all[6]})

	deleteRange(t, db, "c\x00", "e\x00") // bounds that are not keys
	wantScan(t, db, nil, nil, []kv{all[0], all[3], all[6]})

	deleteRange(t, db, "\x00", "\xff\xff") // everything, 0xff included
	wantScan(t, db, nil, nil, nil)
	put(t, db, "b", "back")
	wantGet(t, db, "b", "back")
}

func testBatch(t *testing.T, db engine.Engine) {
	putAll(t, db, "x", "y")
	b := newBatch(t, db)
	b.Put([]byte("a"), []byte("1"))
	b.Put([]byte("b"), []byte("2"))
	b.Delete([]byte("x"))
	b.Put([]byte("y"), []byte("new"))
	b.Put([]byte("z"), []byte("gone"))
	b.Delete([]byte("z")) // later operations in a batch win
	if n := b.Len(); n != 6 {
		t.Fatalf("Len = %d, want 6", n)
	}
	before := []kv{{"x", "vx"}, {"y", "vy"}}
	wantScan(t, db, nil, nil, before) // nothing visible before Commit
	wantMissing(t, db, "a")

	reader := newIter(t, db, nil, nil)
	defer closeIter(t, reader)
	commit(t, b)
	if n := b.Len(); n != 0 {
		t.Fatalf("Len after Commit = %d, want 0", n)
	}
	wantScan(t, db, nil, nil, []kv{{"a", "1"}, {"b", "2"}, {"y", "new"}})
	wantMissing(t, db, "z")

	if seen := entries(reader, false); !slices.Equal(seen, before) {
		t.Fatalf("iterator opened before Commit sees %v, want %v", seen, before)
	}
}

func testBatchReuse(t *testing.T, db engine.Engine) {
	b := newBatch(t, db)
	b.Put([]byte("a"), []byte("1"))
	commit(t, b)
	put(t, db, "a", "changed")
	b.Put([]byte("b"), []byte("2"))
	if n := b.Len(); n != 1 {
		t.Fatalf("Len of reused batch = %d, want 1", n)
	}
	commit(t, b)
	// The first commit's put must not be applied again.
	wantScan(t, db, nil, nil, []kv{{"a", "changed"}, {"b", "2"}})
	commit(t, b) // an empty commit is fine
	wantScan(t, db, nil, nil, []kv{{"a", "changed"}, {"b", "2"}})
}

func testBatchClose(t *testing.T, db engine.Engine) {
	b := db.NewBatch()
	b.Put([]byte("a"), []byte("1"))
	b.Delete([]byte("b"))
	if err := b.Close(); err != nil {
		t.Fatalf("Batch.Close: %v", err)
	}
	wantMissing(t, db, "a")
	b.Put([]byte("c"), []byte("3")) // must not crash
	if err := b.Commit(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Commit after Batch.Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("second Batch.Close = %v, want nil (io.Closer's convention)", err)
	}
	wantScan(t, db, nil, nil, nil)
}

// testCommitContext checks engine.CommitContext: a done context gives up
// with its error and applies nothing, the batch kept for a retry.
func testCommitContext(t *testing.T, db engine.Engine) {
	b := newBatch(t, db)
	b.Put([]byte("a"), []byte("1"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := engine.CommitContext(ctx, b); !errors.Is(err, context.Canceled) {
		t.Fatalf("CommitContext with a cancelled context = %v, want an error wrapping context.Canceled", err)
	}
	wantMissing(t, db, "a")
	if n := b.Len(); n != 1 {
		t.Fatalf("Len after a cancelled commit = %d, want the batch kept (1)", n)
	}
	if err := engine.CommitContext(context.Background(), b); err != nil {
		t.Fatalf("CommitContext: %v", err)
	}
	wantScan(t, db, nil, nil, []kv{{"a", "1"}})
}

// testBatchSize checks Size and Reset: Size counts the bytes of keys and
// values recorded, the same for every engine, and Reset drops them
// without applying anything.
func testBatchSize(t *testing.T, db engine.Engine) {
	b := newBatch(t, db)
	want := func(call string, n, size int) {
		t.Helper()
		if b.Len() != n || b.Size() != size {
			t.Fatalf("after %s: Len %d, Size %d; want %d, %d", call, b.Len(), b.Size(), n, size)
		}
	}
	want("NewBatch", 0, 0)
	b.Put([]byte("a"), []byte("123"))
	want("Put(a, 123)", 1, 4)
	b.Delete([]byte("bb"))
	want("Delete(bb)", 2, 6)
	b.Put([]byte("c"), nil)
	want("Put(c, nil)", 3, 7)
	commit(t, b)
	want("Commit", 0, 0)
	wantScan(t, db, nil, nil, []kv{{"a", "123"}, {"c", ""}})

	b.Put([]byte("d"), []byte("dropped"))
	b.Delete([]byte("a"))
	b.Reset()
	want("Reset", 0, 0)
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{"a", "123"}, {"c", ""}})
	b.Put([]byte("e"), []byte("5"))
	want("Put after Reset", 1, 2)
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{"a", "123"}, {"c", ""}, {"e", "5"}})
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	b.Reset() // must not crash
	want("Close", 0, 0)
}

// testFailedCommit checks the batch rule on the failure every engine can
// produce, a Commit after the engine's Close: the batch is unchanged and
// nothing was applied.
func testFailedCommit(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	put(t, db, "x", "vx")
	b := newBatch(t, db)
	b.Put([]byte("a"), []byte("1"))
	b.Delete([]byte("x"))
	n, size := b.Len(), b.Size()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := b.Commit(); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Commit after the engine's Close = %v, want an error wrapping engine.ErrClosed", err)
	}
	if b.Len() != n || b.Size() != size {
		t.Fatalf("after a failed Commit: Len %d, Size %d; want them unchanged, %d and %d", b.Len(), b.Size(), n, size)
	}
	db = mustOpen(t, open, dir)
	wantScan(t, db, nil, nil, []kv{{"x", "vx"}})
}

// testLargeBatch commits 16 MiB in one batch. An engine either applies it
// or refuses it with engine.ErrTooLarge, applying none of it and leaving
// the batch unchanged, so that a retry fails alike and Reset empties it.
func testLargeBatch(t *testing.T, db engine.Engine) {
	const (
		n        = 4096
		valueLen = 4 << 10
	)
	b := newBatch(t, db)
	key := func(i int) string { return fmt.Sprintf("large/%05d", i) }
	for i := range n {
		b.Put([]byte(key(i)), randomBytes(uint64(i), valueLen))
	}
	size := b.Size()
	err := b.Commit()
	if err == nil {
		if b.Len() != 0 || b.Size() != 0 {
			t.Fatalf("after a Commit: Len %d, Size %d; want 0, 0", b.Len(), b.Size())
		}
		wantGet(t, db, key(0), string(randomBytes(0, valueLen)))
		wantGet(t, db, key(n-1), string(randomBytes(n-1, valueLen)))
		return
	}
	if !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("Commit of a %d-byte batch = %v; want success or an error wrapping engine.ErrTooLarge", size, err)
	}
	t.Logf("a %d-byte batch is refused: %v", size, err)
	for try := 1; ; try++ {
		if b.Len() != n || b.Size() != size {
			t.Fatalf("after failed Commit #%d: Len %d, Size %d; want them unchanged, %d and %d", try, b.Len(), b.Size(), n, size)
		}
		wantMissing(t, db, key(0))
		wantMissing(t, db, key(n-1))
		if try == 2 {
			break
		}
		if err := b.Commit(); !errors.Is(err, engine.ErrTooLarge) {
			t.Fatalf("second Commit of the refused batch = %v, want engine.ErrTooLarge again", err)
		}
	}
	b.Reset()
	b.Put([]byte(key(0)), []byte("small"))
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{key(0), "small"}})
}

// testKeyLimits checks that the engine's declared Limits are no stricter
// than engine.CommonLimits, the domain the contract promises everywhere.
func testKeyLimits(t *testing.T, db engine.Engine) {
	lim, common := engine.LimitsOf(db), engine.CommonLimits()
	if lim.MinKeySize > common.MinKeySize {
		t.Errorf("Limits.MinKeySize = %d: every engine must store keys of %d byte", lim.MinKeySize, common.MinKeySize)
	}
	if lim.MaxKeySize > 0 && lim.MaxKeySize < common.MaxKeySize {
		t.Errorf("Limits.MaxKeySize = %d: every engine must store keys of %d bytes", lim.MaxKeySize, common.MaxKeySize)
	}
	for _, p := range lim.ReservedPrefixes {
		if !slices.Contains(common.ReservedPrefixes, p) {
			t.Errorf("Limits.ReservedPrefixes holds %q, which engine.CommonLimits does not: add it there, so that portable code avoids it", p)
		}
	}
}

// testCommonKeys stores the edges of the common key domain, which every
// engine must take whatever its Limits.
func testCommonKeys(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
	common := engine.CommonLimits()
	var want []kv
	for _, k := range []string{
		"\x00", "\xff", // one byte
		strings.Repeat("k", common.MaxKeySize),
		strings.Repeat("\xff", common.MaxKeySize),
		common.ReservedPrefixes[0][:len(common.ReservedPrefixes[0])-1], // a reserved prefix but one byte
		"x" + common.ReservedPrefixes[0],
	} {
		put(t, db, k, "v"+k)
		want = append(want, kv{k, "v" + k})
	}
	slices.SortFunc(want, func(a, b kv) int { return strings.Compare(a.k, b.k) })
	wantScan(t, db, nil, nil, want)
	for _, e := range want {
		wantGet(t, db, e.k, e.v)
	}
	db = reopen(t, open, dir, db)
	wantScan(t, db, nil, nil, want)
}

// testKeysBeyondCommon tries keys outside the common domain: the engine
// must store those its Limits allow and refuse the others with the
// sentinel Limits.CheckKey names, for a Put and in a batch, without
// applying anything of that batch.
func testKeysBeyondCommon(t *testing.T, db engine.Engine) {
	lim := engine.LimitsOf(db)
	for _, k := range []struct{ name, key string }{
		{"empty", ""},
		{"512 bytes", strings.Repeat("k", engine.CommonLimits().MaxKeySize+1)},
		{"100,000 bytes", strings.Repeat("k", 100_000)},
		{"reserved prefix", engine.CommonLimits().ReservedPrefixes[0] + "x"},
	} {
		t.Run(k.name, func(t *testing.T) {
			if want := lim.CheckKey([]byte(k.key)); want != nil {
				wantRefused(t, db, k.key, want)
			} else {
				wantStored(t, db, k.key, lim)
			}
		})
	}
}

// wantStored requires key, which the engine's Limits allow, to work like
// any other.
func wantStored(t *testing.T, db engine.Engine, key string, lim engine.Limits) {
	t.Helper()
	if err := db.Put([]byte(key), []byte("v")); err != nil {
		t.Fatalf("Put of a %d-byte key: %s; the engine's Limits (%+v) say it stores it: if it cannot, declare that in its Driver.Limits", len(key), clipErr(err), lim)
	}
	wantGet(t, db, key, "v")
	wantScan(t, db, nil, nil, []kv{{key, "v"}})
	del(t, db, key)
	wantMissing(t, db, key)
	b := newBatch(t, db)
	b.Put([]byte(key), []byte("w"))
	commit(t, b)
	wantGet(t, db, key, "w")
	deleteRange(t, db, key, key+"\x00")
	wantMissing(t, db, key)
}

// wantRefused requires key, outside the engine's Limits, to be refused
// with the sentinel want wraps, to be missing, and to be deletable.
func wantRefused(t *testing.T, db engine.Engine, key string, want error) {
	t.Helper()
	sentinel := engine.ErrKeyNotSupported
	if errors.Is(want, engine.ErrTooLarge) {
		sentinel = engine.ErrTooLarge
	}
	if err := db.Put([]byte(key), []byte("v")); !errors.Is(err, sentinel) {
		t.Fatalf("Put of a %d-byte key the engine's Limits exclude = %s, want an error wrapping %v", len(key), clipErr(err), sentinel)
	}
	wantMissing(t, db, key)
	if err := db.Delete([]byte(key)); err != nil {
		t.Fatalf("Delete of a key the engine cannot store = %v, want nil: there is nothing to delete", err)
	}

	b := newBatch(t, db)
	b.Put([]byte("ok"), []byte("1"))
	b.Put([]byte(key), []byte("v"))
	for try := range 2 {
		if err := b.Commit(); !errors.Is(err, sentinel) {
			t.Fatalf("Commit #%d of a batch holding a key the engine cannot store = %s, want an error wrapping %v", try+1, clipErr(err), sentinel)
		}
		if b.Len() != 2 {
			t.Fatalf("Len after a failed Commit = %d, want 2: a failed Commit leaves the batch unchanged", b.Len())
		}
	}
	wantMissing(t, db, "ok")
	b.Reset()
	b.Put([]byte("ok"), []byte("2"))
	commit(t, b)
	wantScan(t, db, nil, nil, []kv{{"ok", "2"}})
	del(t, db, "ok")
}

// clipErr shortens an error that quotes a long key.
func clipErr(err error) string {
	if err == nil {
		return "<nil>"
	}
	if s := err.Error(); len(s) > 300 {
		return fmt.Sprintf("%s... (%d bytes)", s[:300], len(s))
	}
	return err.Error()
}
