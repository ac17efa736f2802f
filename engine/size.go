package engine

import (
	"fmt"
	"math"
	"math/big"
	"regexp"
)

// sizeSyntax is a decimal number with an optional fraction and a small
// exponent, then an optional unit. The exponent is capped at two digits so
// that "1e999999999" is refused before any arithmetic.
var sizeSyntax = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?(?:[eE]\+?[0-9]{1,2})?) ?([kKMGT]|[KMGT]iB)?$`)

// sizeUnits are the multipliers of the units: k, M, G and T are decimal,
// as the command line's counts are; KiB, MiB, GiB and TiB are binary.
var sizeUnits = map[string]int64{
	"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12,
	"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30, "TiB": 1 << 40,
}

// ParseSize reads a whole, non-negative number of bytes (or of anything
// else) the way people write sizes: 67108864, 64MiB, 64M (64,000,000),
// 1.5GiB, 1e6, 512 KiB. It is exact: a value that is not a whole number
// (1.5, 0.3KiB), negative or beyond int64 is an error that says so.
func ParseSize(s string) (int64, error) {
	m := sizeSyntax.FindStringSubmatch(s)
	var r *big.Rat
	if m != nil {
		r, _ = new(big.Rat).SetString(m[1])
	}
	if r == nil {
		return 0, fmt.Errorf("size %q: use a whole number with an optional unit, such as 67108864, 64MiB or 64M (k, M, G, T are powers of 1000; KiB, MiB, GiB, TiB of 1024)", s)
	}
	r.Mul(r, new(big.Rat).SetInt64(sizeUnits[m[2]]))
	switch {
	case !r.IsInt():
		return 0, fmt.Errorf("size %q is not a whole number (%s)", s, r.FloatString(3))
	case !r.Num().IsInt64():
		return 0, fmt.Errorf("size %q is too large (at most %d)", s, int64(math.MaxInt64))
	}
	return r.Num().Int64(), nil
}

// size is an integer option in a config file: a TOML integer as it is, or
// a string that ParseSize reads, so that a file can say "64MiB" where a
// flag would.
type size int64

// UnmarshalTOML implements toml.Unmarshaler.
func (n *size) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case int64:
		*n = size(v)
		return nil
	case string:
		b, err := ParseSize(v)
		*n = size(b)
		return err
	}
	return fmt.Errorf("got %v, want a whole number or a size such as \"64MiB\"", v)
}

// formatSize writes n bytes as a config file takes them: with the
// largest binary unit that divides n ("16GiB"), or else as a number with
// its value in the largest unit below it beside it, for the eye
// ("8321499136 (7.75GiB)").
func formatSize(n int64) string {
	for _, u := range []string{"TiB", "GiB", "MiB", "KiB"} {
		m := sizeUnits[u]
		switch {
		case n < m:
			continue
		case n%m == 0:
			return fmt.Sprintf("%d%s", n/m, u)
		}
		return fmt.Sprintf("%d (%.2f%s)", n, float64(n)/float64(m), u)
	}
	return fmt.Sprint(n)
}
