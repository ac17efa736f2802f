package enginetest

import (
	"errors"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// RunExpiry checks the expiry (engine.Options.Expiry) of the engine
// registered as name, whose driver says it has one, opened with opts (nil
// for the defaults) and an expiry of a second: entries put alone and in a
// batch read back unchanged within the expiry, the engine reports the
// expiry it opened with, and once the expiry has passed a Compact leaves
// none of them. Its keys share one prefix of 8 bytes, which an engine
// ordered within prefixes reads in order. It waits about two seconds.
func RunExpiry(t *testing.T, name string, opts *engine.Options) {
	const expiry = time.Second
	var o engine.Options
	if opts != nil {
		o = *opts
	}
	o.Expiry = expiry
	db := Open(t, name, t.TempDir(), &o)
	if got, err := engine.ExpiryOf(db); got != expiry || err != nil {
		t.Fatalf("ExpiryOf = %v, %v; want %v", got, err, expiry)
	}
	lower, upper := []byte("expiries"), []byte("expiriet")
	written := time.Now()
	put(t, db, "expiries/a", "1")
	b := newBatch(t, db)
	b.Put([]byte("expiries/b"), []byte("22"))
	b.Put([]byte("expiries/c"), []byte("333"))
	commit(t, b)
	want := []kv{{"expiries/a", "1"}, {"expiries/b", "22"}, {"expiries/c", "333"}}
	wantGet(t, db, "expiries/b", "22")
	wantScan(t, db, lower, upper, want)
	if time.Since(written) >= expiry {
		t.Skip("the machine took the whole expiry to write and read three entries")
	}
	// Engines count the expiry in whole seconds from the second of the
	// write, so it has surely passed a second after it.
	time.Sleep(time.Until(written.Add(2*expiry + 100*time.Millisecond)))
	if err := db.Compact(nil, nil); err != nil {
		t.Fatalf("Compact: %v", err)
	}
	for _, e := range want {
		if _, err := db.Get([]byte(e.k)); !errors.Is(err, engine.ErrNotFound) {
			t.Errorf("Get(%q) two expiries after its write: %v, want ErrNotFound", e.k, err)
		}
	}
	wantScan(t, db, lower, upper, nil)
}
