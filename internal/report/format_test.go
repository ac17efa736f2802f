package report

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
		35_094_000 * time.Nanosecond:             "35.1ms",
		999_999_999 * time.Nanosecond:            "1s",
		12*time.Second + 123456*time.Microsecond: "12.12s",
		36*time.Minute + 8_294*time.Millisecond:  "36m8.29s",
		time.Hour + 13*time.Minute + 21_304*time.Millisecond: "1h13m21.3s",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%d) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1.00 KiB", 705_691_648: "673 MiB",
		2_899_102_924: "2.70 GiB", 15 << 30: "15.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
	for v, want := range map[float64]string{0.4: "0", 812: "812", 12_345: "12.3k", 1_240_000: "1.24M", 999_999: "1.00M", 2.5e9: "2.50G"} {
		if got := Rate(v); got != want {
			t.Errorf("Rate(%v) = %q, want %q", v, got, want)
		}
	}
	for v, want := range map[float64]string{0.0634: "0.063", 1.954: "1.95", 56.14: "56.1", 286.2: "286", 2537.4: "2537"} {
		if got := Sig3(v); got != want {
			t.Errorf("Sig3(%v) = %q, want %q", v, got, want)
		}
	}
}
