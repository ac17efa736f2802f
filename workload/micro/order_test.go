package micro

import "testing"

// TestPermutationIsBijection checks that a shuffle hits every entry
// exactly once, for sizes around powers of two where cycle walking does
// the most work.
func TestPermutationIsBijection(t *testing.T) {
	for _, n := range []int64{1, 2, 3, 7, 8, 9, 1000, 1 << 12, 1<<12 + 1, 100_003} {
		for _, seed := range []uint64{0, 1, 42} {
			p := shuffled(n, seed)
			seen := make([]bool, n)
			for i := range n {
				x := p.at(i)
				if x < 0 || x >= n || seen[x] {
					t.Fatalf("n=%d seed=%d: position %d maps to %d, out of range or seen before", n, seed, i, x)
				}
				seen[x] = true
			}
		}
	}
}

func TestPermutationShuffles(t *testing.T) {
	const n = 10_000
	a, b := shuffled(n, 1), shuffled(n, 2)
	fixed, same, ascending := 0, 0, 0
	for i := range int64(n) {
		if a.at(i) == i {
			fixed++
		}
		if a.at(i) == b.at(i) {
			same++
		}
		if i > 0 && a.at(i) == a.at(i-1)+1 {
			ascending++
		}
	}
	// A random permutation has about one fixed point and one match with
	// another; allow a few.
	if fixed > 10 || same > 10 || ascending > 10 {
		t.Errorf("not shuffled: %d fixed points, %d equal to another seed's, %d ascending steps", fixed, same, ascending)
	}
	if s := sequential(n); s.at(1234) != 1234 {
		t.Errorf("sequential(%d).at(1234) = %d", n, s.at(1234))
	}
	if c := shuffled(n, 1); c.at(77) != a.at(77) {
		t.Error("the same seed gave another permutation")
	}
}

func TestPermutationDoesNotAllocate(t *testing.T) {
	p := shuffled(1_000_000, 7)
	if n := testing.AllocsPerRun(100, func() { p.at(12345) }); n != 0 {
		t.Errorf("at allocates %v times", n)
	}
}
