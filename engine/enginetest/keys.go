package enginetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

// testKeyLimits checks that the engine's declared Limits are no stricter
// than engine.CommonLimits, the domain the contract promises everywhere.
func testKeyLimits(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
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
func testKeysBeyondCommon(t *testing.T, open Factory, dir string) {
	db := mustOpen(t, open, dir)
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
	b := db.NewBatch()
	defer b.Close()
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

	b := db.NewBatch()
	defer b.Close()
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
	sb := sized(t, b)
	sb.Reset()
	sb.Put([]byte("ok"), []byte("2"))
	commit(t, sb)
	wantScan(t, db, nil, nil, []kv{{"ok", "2"}})
	del(t, db, "ok")
}

// sized returns b as an engine.SizedBatch, which every batch of an engine
// from engine.Open is.
func sized(t *testing.T, b engine.Batch) engine.SizedBatch {
	t.Helper()
	sb, ok := b.(engine.SizedBatch)
	if !ok {
		t.Fatalf("batch %T is not an engine.SizedBatch: open the engine with engine.Open", b)
	}
	return sb
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
