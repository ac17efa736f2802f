package suite

import (
	"errors"
	"testing"

	"github.com/tsbench/storage/workload/harness"
)

func TestParseCount(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1", 1},
		{"250000", 250000},
		{"10k", 10000},
		{"10K", 10000},
		{"1.5k", 1500},
		{"100M", 100000000},
		{"1.5M", 1500000},
		{"1.1M", 1100000}, // exact: 1.1*1e6 in float64 is 1100000.0000000002
		{"0.5M", 500000},
		{"2G", 2000000000},
		{"1e6", 1000000},
		{"1E6", 1000000},
		{"1e+6", 1000000},
		{"2.5e3", 2500},
		{"1e3k", 1000000},
		{"007", 7},
		{"9223372036854775807", 9223372036854775807},
		{"9.2G", 9200000000},
	} {
		got, err := ParseCount(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseCount(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

func TestParseCountRejects(t *testing.T) {
	for _, in := range []string{
		"", "0", "0k", "0.0", "-5", "-1M", "+5", "abc", "1.5", "1.2345k", "0.5",
		"1e-3", "1e999999999", "9223372036854775808", "99999999999G", "1e99",
		"10m", "10 k", " 10", "10kk", "1,000", "1_000", "0x10", "1/2", "Inf", "NaN",
		"1.", ".5M", "1e", "k",
	} {
		got, err := ParseCount(in)
		if err == nil {
			t.Errorf("ParseCount(%q) = %d, want an error", in, got)
			continue
		}
		if !errors.Is(err, errCount) {
			t.Errorf("ParseCount(%q) error %v does not wrap errCount", in, err)
		}
	}
}

// TestCountRoundTrip checks that counts shown in help and messages read
// back as the same number.
func TestCountRoundTrip(t *testing.T) {
	for _, n := range []int64{1, 999, 1000, 1234, 1500, 5000, 1_000_000, 1_250_000, 1_500_000, 100_000_000, 2_000_000_000, 9223372036854775807} {
		s := harness.Count(n)
		if back, err := ParseCount(s); err != nil || back != n {
			t.Errorf("ParseCount(harness.Count(%d) = %q) = %d, %v", n, s, back, err)
		}
	}
}
