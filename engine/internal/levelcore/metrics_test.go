package levelcore

import (
	"errors"
	"testing"
)

// The tables LevelDB 1.23 and HyperLevelDB print for "leveldb.stats".
const (
	statsHeader = `                               Compactions
Level  Files Size(MB) Time(sec) Read(MB) Write(MB)
--------------------------------------------------
`
	leveldbStats = statsHeader + `  0        0        0         0        0         1
  1        0        0         0        5         5
  2        1        1         0        1         1
`
	hyperStats = statsHeader + `  0        0        0         0        0         1
  1        0        0         0        5         6
  2        0        0         0        1         1
  3        0        0         0        1         1
  4        0        0         0        1         1
  5        0        0         0        1         1
  6        1        1         0        1       123
`
)

func TestCompactBytes(t *testing.T) {
	for _, c := range []struct {
		name, stats string
		want        int64
	}{
		{"leveldb", leveldbStats, 7 << 20},
		{"hyperleveldb", hyperStats, 134 << 20},
		{"no levels yet", statsHeader, 0},
	} {
		got, err := compactBytes(c.stats)
		if err != nil || got != c.want {
			t.Errorf("%s: compactBytes = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "Level Files\n 0 1\n", "Level Write(MB)\n 0 x\n"} {
		if _, err := compactBytes(bad); !errors.Is(err, errStats) {
			t.Errorf("compactBytes(%q) = %v, want errStats", bad, err)
		}
	}
}
