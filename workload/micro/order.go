package micro

import "math/bits"

// permutation maps positions 0..n-1 to entry numbers 0..n-1, one to one:
// the identity for sequential order, or a seeded shuffle. It is computed
// per position rather than stored, so a random fill of 100M entries needs
// no 800 MB table and the harness's memory stays flat in n.
//
// The shuffle is a bijection f on [0, 2^k), the smallest power of two
// holding n, made of rounds of add, multiply by an odd number and
// xor-shift (each invertible modulo 2^k); positions are mapped by cycle
// walking (apply f until the result is below n), which keeps it a
// bijection on [0, n) and takes under two steps on average.
type permutation struct {
	n      uint64
	random bool
	mask   uint64
	shift  uint
	add    [shuffleRounds]uint64
	mul    [shuffleRounds]uint64
}

const shuffleRounds = 4

// sequential is the identity on [0, n).
func sequential(n int64) permutation { return permutation{n: uint64(n)} }

// shuffled is a pseudo-random permutation of [0, n) determined by seed.
func shuffled(n int64, seed uint64) permutation {
	p := permutation{n: uint64(n), random: true}
	k := uint(bits.Len64(uint64(max(n, 1) - 1)))
	p.mask = 1<<k - 1
	p.shift = k/2 + 1
	s := seed
	for r := range shuffleRounds {
		s = mix(s + 1)
		p.add[r] = s
		s = mix(s + 1)
		p.mul[r] = s | 1
	}
	return p
}

// at returns the entry number at position i, which must be in [0, n).
func (p *permutation) at(i int64) int64 {
	if !p.random {
		return i
	}
	x := uint64(i)
	for {
		for r := range shuffleRounds {
			x = (x + p.add[r]) & p.mask
			x = (x * p.mul[r]) & p.mask
			x ^= x >> p.shift
		}
		if x < p.n {
			return int64(x)
		}
	}
}

// mix is the splitmix64 finalizer: a cheap, well-spread hash of x.
func mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}
