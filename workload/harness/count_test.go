package harness

import "testing"

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1k", 1500: "1.5k", 1234: "1234", 10_000: "10k",
		500_000: "500k", 1_500_000: "1.5M", 50_000_000: "50M", 100_000_001: "100000001", 1_230_000: "1.23M", 2e9: "2G"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
