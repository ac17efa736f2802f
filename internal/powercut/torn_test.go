package powercut

import (
	"bytes"
	"os"
	"slices"
	"testing"
)

// torn overwrites a synced 16-block file and appends a block, cuts with
// Torn and seed, and returns which blocks the cut persisted.
func torn(t *testing.T, seed int64) []bool {
	t.Helper()
	s := newStore(t, Options{Torn: true, Seed: seed})
	const blocks = 16
	old := bytes.Repeat([]byte{'o'}, blocks*blockSize)
	writeFile(t, s.path("f"), old, true)
	syncDir(t, s.mnt)
	f, err := os.OpenFile(s.path("f"), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Block-aligned writes of mixed sizes, one straddling blocks 2 and 3.
	for _, w := range []struct{ off, n int }{{0, 2*blockSize + 100}, {2*blockSize + 100, 5*blockSize - 100}, {7 * blockSize, 10 * blockSize}} {
		if _, err := f.WriteAt(bytes.Repeat([]byte{'n'}, w.n), int64(w.off)); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	s.cut()

	got, err := os.ReadFile(s.path("f"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(old) {
		t.Fatalf("torn file has %d bytes, want the durable %d: the append must stay pending", len(got), len(old))
	}
	persisted := make([]bool, blocks)
	for i := range persisted {
		b := got[i*blockSize : (i+1)*blockSize]
		switch {
		case bytes.Count(b, []byte{'n'}) == blockSize:
			persisted[i] = true
		case bytes.Count(b, []byte{'o'}) != blockSize:
			t.Fatalf("block %d is neither old nor new: torn inside a 4 KiB unit", i)
		}
	}
	return persisted
}

func TestTorn(t *testing.T) {
	first := torn(t, 1)
	if !slices.Contains(first, true) || !slices.Contains(first, false) {
		t.Errorf("seed 1 persisted blocks %v, want some but not all", first)
	}
	if again := torn(t, 1); !slices.Equal(first, again) {
		t.Errorf("seed 1 persisted %v, then %v: want the same blocks", first, again)
	}
}
