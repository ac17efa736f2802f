package main

import (
	"errors"
	"math"
	"testing"
)

func TestIntRoundTrip(t *testing.T) {
	for _, c := range []struct {
		v    int64
		size int
	}{{0, 1}, {-1, 1}, {63, 1}, {-64, 1}, {64, 2}, {1 << 40, 6}, {math.MaxInt64, 10}, {math.MinInt64, 10}} {
		b := appendInt(nil, c.v)
		got, err := parseInt(b)
		if err != nil || got != c.v || len(b) != c.size {
			t.Errorf("%d: stored in %d bytes (want %d), read back %d, %v", c.v, len(b), c.size, got, err)
		}
	}
}

func TestFloatRoundTrip(t *testing.T) {
	for _, c := range []struct {
		v    float64
		size int
	}{
		{0, 1}, {2, 1}, {42, 3}, {23.5, 4}, {-1, 3}, {1e300, 8}, {0.1, 8}, {-1.0 / 3, 8},
		{math.MaxFloat64, 8}, {math.SmallestNonzeroFloat64, 8}, {math.Inf(-1), 3},
	} {
		b := appendFloat(nil, c.v)
		got, err := parseFloat(b)
		if err != nil || math.Float64bits(got) != math.Float64bits(c.v) || len(b) != c.size {
			t.Errorf("%v: stored in %d bytes (want %d), read back %v, %v", c.v, len(b), c.size, got, err)
		}
	}
	if b := appendFloat(nil, math.Copysign(0, -1)); len(b) != 2 {
		t.Errorf("-0 takes %d bytes, want 2 (its sign bit kept)", len(b))
	}
}

func TestBadValues(t *testing.T) {
	for _, b := range [][]byte{nil, {0x80}, {1, 2}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}} {
		if _, err := parseInt(b); !errors.Is(err, errBadValue) {
			t.Errorf("parseInt(% x) = %v, want errBadValue", b, err)
		}
	}
	for _, b := range [][]byte{nil, {0x80}, {1, 2}, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}} {
		if _, err := parseFloat(b); !errors.Is(err, errBadValue) {
			t.Errorf("parseFloat(% x) = %v, want errBadValue", b, err)
		}
	}
}
