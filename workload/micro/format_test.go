package micro

import (
	"testing"
	"time"
)

func TestFormat(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                        "0s",
		1277 * time.Nanosecond:                   "1.277µs",
		9999 * time.Nanosecond:                   "9.999µs",
		42_399 * time.Nanosecond:                 "42.4µs",
		350_975 * time.Nanosecond:                "351µs",
		3_141_592 * time.Nanosecond:              "3.14ms",
		999_999_999 * time.Nanosecond:            "1s",
		12*time.Second + 123456*time.Microsecond: "12.12s",
		time.Minute + 8_294_000*time.Microsecond: "1m8.29s",
	} {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%d) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 705_691_648: "673 MiB", 2_899_102_924: "2.70 GiB"} {
		if got := humanBytes(n); got != want {
			t.Errorf("humanBytes(%d) = %q, want %q", n, got, want)
		}
	}
	for v, want := range map[float64]string{0.4: "0", 812: "812", 12_345: "12.3k", 1_240_000: "1.24M", 999_999: "1.00M", 2.5e9: "2.50G"} {
		if got := humanRate(v); got != want {
			t.Errorf("humanRate(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{0.0634: "0.063", 1.954: "1.95", 56.14: "56.1", 286.2: "286"} {
		if got := sig3(v); got != want {
			t.Errorf("sig3(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{2345: "2345", 2.3456789: "2.34568", 1234567.8: "1234568", 0.5: "0.5"} {
		if got := goBenchNumber(v); got != want {
			t.Errorf("goBenchNumber(%v) = %q, want %q", v, got, want)
		}
	}
}
