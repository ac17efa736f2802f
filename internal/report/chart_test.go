package report

import "testing"

func TestAxisLabel(t *testing.T) {
	for in, want := range map[string]string{"1.00 GiB": "1 GiB", "1.50 GiB": "1.5 GiB", "2.50": "2.5", "12.0k": "12k",
		"1m0s": "1m", "1h0m0s": "1h", "10s": "10s", "100ms": "100ms", "1.5µs": "1.5µs", "0": "0", "512 MiB": "512 MiB", "+0.200%": "+0.2%", "-20.0%": "-20%"} {
		if got := axisLabel(in); got != want {
			t.Errorf("axisLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestColorsDistinct checks that twenty engines, every Go engine and the
// JVM systems side by side, get a color each.
func TestColorsDistinct(t *testing.T) {
	seen := map[string]int{}
	for i := range 20 {
		if j, ok := seen[Color(i)]; ok {
			t.Errorf("engines %d and %d share %s", j, i, Color(i))
		}
		seen[Color(i)] = i
	}
}
