package micro

import (
	"bytes"
	"compress/flate"
	"testing"

	"github.com/golang/snappy"
)

// TestValueCompressibility compresses many values back to back, as a
// table block holds them, with Snappy (what LevelDB and RocksDB use) and
// flate, and checks that they shrink to about the configured ratio.
func TestValueCompressibility(t *testing.T) {
	for _, c := range []struct {
		size  int
		ratio float64
	}{
		{100, 0.5}, {100, 0.25}, {100, 0.75}, {100, 1}, {2026, 0.5}, {LargeValueSize, 0.5},
	} {
		v := newValues(c.size, c.ratio, 1)
		var data []byte
		for i := int64(0); len(data) < 256<<10; i++ {
			data = append(data, v.value(i, 0)...)
		}
		var fl bytes.Buffer
		w, _ := flate.NewWriter(&fl, flate.BestSpeed)
		w.Write(data)
		w.Close()
		for name, got := range map[string]float64{
			"snappy": float64(len(snappy.Encode(nil, data))) / float64(len(data)),
			"flate":  float64(fl.Len()) / float64(len(data)),
		} {
			// Random bytes do not compress, and compressors spend a few
			// bytes per repeat and per block.
			if got < c.ratio-0.005 || got > c.ratio+0.07 {
				t.Errorf("%d-byte values of ratio %g: %s compresses them to %.3f", c.size, c.ratio, name, got)
			}
		}
	}
}

func TestValues(t *testing.T) {
	v := newValues(100, 0.5, 1)
	a, b := v.value(1, 0), v.value(1, 0)
	if len(a) != 100 || !bytes.Equal(a, b) {
		t.Fatalf("value(1, 0) is not stable: %x, %x", a, b)
	}
	if bytes.Equal(a, v.value(1, 1)) {
		t.Error("an overwrite's generation has the same value")
	}
	distinct := map[string]bool{}
	for i := range int64(1000) {
		distinct[string(v.value(i, 0))] = true
	}
	if len(distinct) < 990 {
		t.Errorf("only %d distinct values among 1000", len(distinct))
	}
	if w := newValues(100, 0.5, 2); bytes.Equal(w.value(1, 0), a) {
		t.Error("another seed gave the same value")
	}
	big := newValues(MaxValueSize/8, 1, 1)
	if got := big.value(5, 0); len(got) != MaxValueSize/8 {
		t.Errorf("value of %d bytes has %d", MaxValueSize/8, len(got))
	}
	if n := testing.AllocsPerRun(100, func() { v.value(77, 3) }); n != 0 {
		t.Errorf("value allocates %v times", n)
	}
}
