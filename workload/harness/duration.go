package harness

import "time"

// Round keeps durations readable in progress and messages: 1m23s, 4.2s,
// 350ms.
func Round(d time.Duration) time.Duration {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	default:
		return d.Round(time.Microsecond) // a clone by hard links: not 0s
	}
}
