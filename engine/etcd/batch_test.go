package etcd_test

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/etcd"
)

// TestBatchLimits checks that a batch over the cluster's limits fails whole
// instead of being split, and that repeated keys count once.
func TestBatchLimits(t *testing.T) {
	t.Parallel()
	const maxOps, maxBytes = 8, 1 << 20
	db := openDB(t, t.TempDir(), &etcd.Options{MaxTxnOps: maxOps, MaxRequestBytes: maxBytes})
	defer db.Close()
	b := db.NewBatch()
	defer b.Close()

	// 3 writes to each of 8 keys: 24 operations, 8 distinct keys.
	for round := range 3 {
		for k := range maxOps {
			b.Put(fmt.Appendf(nil, "k%d", k), fmt.Appendf(nil, "round %d", round))
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatalf("a batch of %d distinct keys (24 writes) with max_txn_ops %d: %v", maxOps, maxOps, err)
	}
	if v, err := db.Get([]byte("k3")); err != nil || string(v) != "round 2" {
		t.Fatalf("Get(k3) = %q, %v; want the batch's last write, round 2", v, err)
	}

	for k := range maxOps + 1 {
		b.Put(fmt.Appendf(nil, "n%d", k), []byte("v"))
	}
	err := b.Commit()
	if !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("a batch of %d distinct keys with max_txn_ops %d = %v, want ErrTooLarge", maxOps+1, maxOps, err)
	}
	t.Log(err)
	if _, err := db.Get([]byte("n0")); !errors.Is(err, engine.ErrNotFound) {
		t.Fatalf("Get(n0) after a refused batch = %v, want ErrNotFound: nothing of it may apply", err)
	}
	if n := b.(interface{ Len() int }).Len(); n != maxOps+1 {
		t.Fatalf("a refused batch holds %d writes, want its %d", n, maxOps+1)
	}
	b.Close()

	// Two values over max_request_bytes together, and a Put of three times
	// as much: refused before they are sent, as Limits.MaxBatchSize says.
	big := bytes.Repeat([]byte("x"), maxBytes*3/5)
	b = db.NewBatch()
	b.Put([]byte("big1"), big)
	b.Put([]byte("big2"), big)
	if err := b.Commit(); !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("a batch of %d bytes with max_request_bytes %d = %v, want ErrTooLarge", 2*len(big), maxBytes, err)
	}
	if err := db.Put([]byte("huge"), bytes.Repeat(big, 3)); !errors.Is(err, engine.ErrTooLarge) {
		t.Fatalf("a Put of %d bytes with max_request_bytes %d = %v, want ErrTooLarge", 3*len(big), maxBytes, err)
	}
	if err := db.Put([]byte("big1"), big); err != nil {
		t.Fatalf("a Put within max_request_bytes: %v", err)
	}
}
