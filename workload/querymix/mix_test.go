package querymix

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestParseMix(t *testing.T) {
	m, err := ParseMix("last=50, recent,multi=5")
	if err != nil || m != (Mix{Last: 50, Recent: 1, Multi: 5}) || m.String() != "last=50,recent=1,multi=5" {
		t.Errorf("ParseMix: %+v %v", m, err)
	}
	for _, s := range []string{"lats", "last=0", "last=x", "last,last", ""} {
		if _, err := ParseMix(s); !errors.Is(err, ErrInvalid) {
			t.Errorf("ParseMix(%q): %v", s, err)
		}
	}
	if _, err := ParseMix("lats"); !strings.Contains(err.Error(), "last, recent, range, scan, multi") {
		t.Errorf("unknown kind: %v does not list the kinds", err)
	}
}

func TestPicker(t *testing.T) {
	p := NewPicker(Mix{Last: 3, Scan: 1})
	r := rand.New(rand.NewPCG(1, 2))
	var n [5]int
	for range 40_000 {
		n[p.Pick(r.Uint64())]++
	}
	if n[1] != 0 || n[2] != 0 || n[4] != 0 || n[0] < 29_000 || n[0] > 31_000 || n[0]+n[3] != 40_000 {
		t.Errorf("draws per kind %v, want last 3/4 and scan 1/4", n)
	}
}
