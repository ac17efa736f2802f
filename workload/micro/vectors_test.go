package micro

import (
	"encoding/hex"
	"encoding/json"
	"hash/crc32"
	"testing"

	"github.com/cespare/xxhash/v2"

	"github.com/tsbench/storage/internal/report/reporttest"
)

// testdata/vectors.json holds what the generators make for fixed inputs. The JVM
// worker's tests (jvm/) check its own generators against the same file, so
// that a change to either generator fails both suites: keys and values
// must stay bit-identical across the two languages.
type vectors struct {
	Keys         []keyVector   `json:"keys"`
	Values       []valueVector `json:"values"`
	Permutations []permVector  `json:"permutations"`
	Seeds        []seedVector  `json:"seeds"`
	Hashes       []hashVector  `json:"hashes"`
}

type keyVector struct {
	Type  KeyType `json:"type"`
	Index int64   `json:"index"`
	Key   string  `json:"key_hex"`
}

type valueVector struct {
	Size  int     `json:"size"`
	Ratio float64 `json:"ratio"`
	Seed  uint64  `json:"seed"`
	// PoolCRC is the CRC32 of the whole pool.
	PoolCRC uint32 `json:"pool_crc32"`
	Entries []struct {
		Index int64  `json:"index"`
		Gen   uint64 `json:"gen"`
		Value string `json:"value_hex"`
	} `json:"entries"`
}

type permVector struct {
	N         int64   `json:"n"`
	Seed      uint64  `json:"seed"`
	Random    bool    `json:"random"`
	Positions []int64 `json:"first_positions"`
}

type seedVector struct {
	Seed      uint64 `json:"seed"`
	Benchmark string `json:"benchmark"`
	Run       uint64 `json:"run"`
	Got       uint64 `json:"got"`
}

type hashVector struct {
	// Input is bytes 0, 1, 2, ... of Len bytes, fed in pieces of Piece.
	Len   int    `json:"len"`
	Piece int    `json:"piece"`
	CRC32 uint32 `json:"crc32"`
	XXH64 uint64 `json:"xxh64"`
}

func makeVectors() vectors {
	var v vectors
	for _, t := range KeyTypes {
		for _, i := range []int64{0, 1, 255, 256, 999, 1000, 12345, 1<<31 + 7, 4_294_967_295} {
			if i >= t.MaxNum() {
				continue
			}
			v.Keys = append(v.Keys, keyVector{t, i, hex.EncodeToString(t.Append(nil, i))})
		}
	}
	for _, c := range []struct {
		size  int
		ratio float64
		seed  uint64
	}{{100, 0.5, 1}, {7, 1, 42}, {1000, 0.25, 3}, {100, 0.5, 1 << 63}} {
		vals := newValues(c.size, c.ratio, c.seed)
		vv := valueVector{Size: c.size, Ratio: c.ratio, Seed: c.seed, PoolCRC: crc32.ChecksumIEEE(vals.pool)}
		for _, i := range []int64{0, 1, 77, 99_999} {
			for _, gen := range []uint64{0, 1} {
				vv.Entries = append(vv.Entries, struct {
					Index int64  `json:"index"`
					Gen   uint64 `json:"gen"`
					Value string `json:"value_hex"`
				}{i, gen, hex.EncodeToString(vals.value(i, gen)[:min(c.size, 64)])})
			}
		}
		v.Values = append(v.Values, vv)
	}
	for _, c := range []struct {
		n      int64
		seed   uint64
		random bool
	}{{1, 5, true}, {10, 1, true}, {1000, 1, true}, {100_000, 7, true}, {1 << 20, 1, true}, {5, 1, false}} {
		p := sequential(c.n)
		if c.random {
			p = shuffled(c.n, c.seed)
		}
		pv := permVector{N: c.n, Seed: c.seed, Random: c.random}
		for i := range min(c.n, 20) {
			pv.Positions = append(pv.Positions, p.at(i))
		}
		v.Permutations = append(v.Permutations, pv)
	}
	for _, seed := range []uint64{1, 42} {
		for _, name := range []string{Write, ReadKey, FillRandom} {
			s := &Session{cfg: Config{Seed: seed}, runs: map[string]uint64{}}
			for run := uint64(1); run <= 2; run++ {
				v.Seeds = append(v.Seeds, seedVector{seed, name, run, s.seed(name)})
			}
		}
	}
	for _, c := range [][2]int{{0, 1}, {1, 1}, {3, 1}, {31, 5}, {32, 32}, {33, 7}, {100, 13}, {1000, 100}, {1000, 33}} {
		in := make([]byte, c[0])
		for i := range in {
			in[i] = byte(i)
		}
		h := xxhash.New()
		var crc uint32
		for p := in; len(p) > 0; {
			k := min(c[1], len(p))
			h.Write(p[:k])
			crc = crc32.Update(crc, crc32.IEEETable, p[:k])
			p = p[k:]
		}
		v.Hashes = append(v.Hashes, hashVector{c[0], c[1], crc, h.Sum64()})
	}
	return v
}

// TestVectors checks the generators against testdata/vectors.json, which
// go test -run TestVectors -update rewrites after a deliberate change (the
// JVM worker's generators must then change alike).
func TestVectors(t *testing.T) {
	got, err := json.MarshalIndent(makeVectors(), "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	reporttest.Golden(t, "vectors.json", append(got, '\n'))
}
