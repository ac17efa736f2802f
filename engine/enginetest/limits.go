package enginetest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/internal/inject"
)

// smallHuge is the largest write testWriteLimits builds in memory; above
// it, huge maps zero pages instead, and batches of many operations are
// not tried.
const smallHuge = 64 << 20

// testWriteLimits checks the value and batch limits the engine's Limits
// advertise. A batch one operation over MaxBatchOps, or one put over
// MaxBatchSize, must fail to commit with engine.ErrTooLarge, twice, with
// Len and Size unchanged and nothing applied, and work again after Reset.
// Then, with the backend's next call made to fail (inject.Broken), a Put
// of a value one byte over MaxValueSize, or of a key and value one byte
// over MaxBatchSize, must fail with engine.ErrTooLarge, and the next Get
// with the injected error: proof that the refused Put never reached the
// backend.
func testWriteLimits(t *testing.T, db engine.Engine) {
	lim := engine.LimitsOf(db)
	if lim.MaxValueSize == 0 && lim.MaxBatchSize == 0 && lim.MaxBatchOps == 0 {
		t.Skip("the engine advertises no value or batch limit (engine.Limits)")
	}
	t.Logf("limits: MaxValueSize %d, MaxBatchSize %d, MaxBatchOps %d", lim.MaxValueSize, lim.MaxBatchSize, lim.MaxBatchOps)
	if n := lim.MaxBatchOps; n > 0 && n < smallHuge/16 {
		b := newBatch(t, db)
		for i := range n {
			b.Put(fmt.Appendf(nil, "ops/%08d", i), []byte("v"))
		}
		commit(t, b) // at the limit
		for i := range n + 1 {
			b.Put(fmt.Appendf(nil, "over/%08d", i), []byte("v"))
		}
		wantRefusedBatch(t, db, b, fmt.Sprintf("a batch of %d operations, MaxBatchOps %d", n+1, n), "over/00000000")
	}
	if n := lim.MaxBatchSize; n > 0 && n <= smallHuge {
		b := newBatch(t, db)
		chunk := max(min(n/4, 64<<10), 1)
		if lim.MaxValueSize > 0 {
			chunk = min(chunk, lim.MaxValueSize)
		}
		for i := 0; b.Size() <= n; i++ {
			b.Put(fmt.Appendf(nil, "size/%08d", i), randomBytes(uint64(i), chunk))
		}
		wantRefusedBatch(t, db, b, fmt.Sprintf("a batch of %d bytes, MaxBatchSize %d", b.Size(), n), "size/00000000")
	}

	injected := fmt.Errorf("%w: enginetest: injected failure, pending while the refused writes are made", engine.ErrBroken)
	if err := inject.Broken(db, injected); err != nil {
		t.Fatalf("inject.Broken: %v", err)
	}
	key := []byte("limits")
	if n := lim.MaxValueSize; n > 0 {
		wantTooLarge(t, fmt.Sprintf("Put of a value of %d bytes, MaxValueSize %d", n+1, n), db.Put(key, huge(t, n+1)))
		b := newBatch(t, db)
		b.Put(key, huge(t, n+1))
		wantTooLarge(t, fmt.Sprintf("Commit of a batch put of a value of %d bytes, MaxValueSize %d", n+1, n), b.Commit())
	}
	if n := lim.MaxBatchSize; n > 0 && (lim.MaxValueSize == 0 || n-len(key)+1 <= lim.MaxValueSize) {
		wantTooLarge(t, fmt.Sprintf("Put of a key and value of %d bytes, MaxBatchSize %d", n+1, n), db.Put(key, huge(t, n-len(key)+1)))
	}
	if _, err := db.Get(key); err != injected {
		t.Fatalf("Get after the refused writes = %v, want the failure injected before them: a refused write reached the backend", err)
	}
}

func wantTooLarge(t *testing.T, call string, err error) {
	t.Helper()
	if !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("%s = %s, want an error wrapping engine.ErrTooLarge", call, clipErr(err))
	}
}

// wantRefusedBatch requires b, what describes, to fail to commit with
// engine.ErrTooLarge twice, unchanged and with nothing applied (first,
// its first key, missing), and to commit again after Reset.
func wantRefusedBatch(t *testing.T, db engine.Engine, b engine.Batch, what, first string) {
	t.Helper()
	n, size := b.Len(), b.Size()
	for try := 1; try <= 2; try++ {
		wantTooLarge(t, fmt.Sprintf("Commit #%d of %s", try, what), b.Commit())
		if b.Len() != n || b.Size() != size {
			t.Fatalf("after a refused Commit of %s: Len %d, Size %d; want them unchanged, %d and %d", what, b.Len(), b.Size(), n, size)
		}
	}
	wantMissing(t, db, first)
	b.Reset()
	b.Put([]byte(first), []byte("after Reset"))
	commit(t, b)
	wantGet(t, db, first, "after Reset")
}
