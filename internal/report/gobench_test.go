package report

import "testing"

func TestGoBenchNumber(t *testing.T) {
	for v, want := range map[float64]string{2345: "2345", 2.3456789: "2.34568", 1234567.8: "1234568", 0.5: "0.5"} {
		if got := GoBenchNumber(v); got != want {
			t.Errorf("GoBenchNumber(%v) = %q, want %q", v, got, want)
		}
	}
}
