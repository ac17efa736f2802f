package points

import (
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/tsbench/storage/engine/tskey"
	"github.com/tsbench/storage/internal/report/reporttest"
)

// testdata/vectors.json holds points the generator makes. The JVM worker's
// tests (jvm/) check its own generator against the same file, so that a
// change to either fails both suites.
type vectors struct {
	Points []pointVector `json:"points"`
	Counts []countVector `json:"counts"`
}

type pointVector struct {
	Series int64  `json:"series"`
	Seed   uint64 `json:"seed"`
	Index  int64  `json:"index"`
	Key    string `json:"key_hex"`
	Value  int64  `json:"value"`
	// Encoded is the value as stored: a protobuf message.
	Encoded string `json:"encoded_hex"`
}

type countVector struct {
	Series  int64 `json:"series"`
	Lo      int64 `json:"lo"`
	Hi      int64 `json:"hi"`
	S       int64 `json:"s"`
	Count   int64 `json:"count"`
	First   int64 `json:"first"`
	Logical int64 `json:"logical_bytes"`
}

func makeVectors() vectors {
	var v vectors
	for _, g := range []Generator{{Series: 1, Seed: 1}, {Series: 1000, Seed: 1}, {Series: 5000, Seed: 42}, {Series: 7, Seed: 1 << 63}} {
		for _, i := range []int64{0, 1, 2, 999, 1000, 123_456, MaxPoints - 1} {
			s, ts, seq := g.Point(i)
			v.Points = append(v.Points, pointVector{g.Series, g.Seed, i, hex.EncodeToString(tskey.AppendKey(nil, s, ts, seq)),
				g.Value(seq), hex.EncodeToString(AppendValue(nil, g.Value(seq)))})
		}
	}
	for _, c := range [][4]int64{{1000, 0, 100_000, 3}, {1000, 500, 1500, 999}, {7, 3, 3, 0}, {5000, 12_345, 200_000, 4_321}} {
		g := Generator{Series: c[0], Seed: 1}
		v.Counts = append(v.Counts, countVector{c[0], c[1], c[2], c[3], g.Count(c[1], c[2], c[3]), g.First(c[1], c[3]), g.LogicalBytes(c[1], c[2])})
	}
	return v
}

// TestVectors checks the generator against testdata/vectors.json, which
// go test -run TestVectors -update rewrites after a deliberate change (the
// JVM worker's generator must then change alike).
func TestVectors(t *testing.T) {
	got, err := json.MarshalIndent(makeVectors(), "", "\t")
	if err != nil {
		t.Fatal(err)
	}
	reporttest.Golden(t, "vectors.json", append(got, '\n'))
}
