package harness

import "strconv"

// Count formats a count as the reports' labels do: 100M, 1.5M, 10k, 1G;
// with at most two decimals, else in full (1234567).
func Count(n int64) string {
	for _, u := range []struct {
		size   int64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if n >= u.size && n%(u.size/100) == 0 {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', -1, 64) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}
