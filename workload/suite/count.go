package suite

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/tsbench/storage/workload/harness"
)

// countSyntax is a decimal number with an optional fraction and a small
// exponent, then an optional metric suffix. The exponent is capped at two
// digits so that "1e999999999" is rejected before any arithmetic.
var countSyntax = regexp.MustCompile(`^([0-9]+(?:\.[0-9]+)?(?:[eE]\+?[0-9]{1,2})?)([kKMG]?)$`)

// countSuffix is the multiplier of each suffix; they are decimal, as in
// the 2014 labels ("100M values").
var countSuffix = map[string]int64{"": 1, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9}

// countError says why a count was rejected.
type countError struct{ input, reason string }

func (e *countError) Error() string        { return fmt.Sprintf("invalid count %q: %s", e.input, e.reason) }
func (e *countError) Is(target error) bool { return target == errCount }

// ParseCount reads a positive whole count such as 100M, 1.5M, 10k, 1e6 or
// 250000. Suffixes are decimal (k = 1000, M = 1e6, G = 1e9). It is exact:
// 1.1M is 1100000, and a value that is not a whole number (1.5, 1.2345k),
// zero, negative or beyond int64 is an error.
func ParseCount(s string) (int64, error) {
	m := countSyntax.FindStringSubmatch(s)
	var r *big.Rat
	if m != nil {
		r, _ = new(big.Rat).SetString(m[1])
	}
	if r == nil && strings.HasPrefix(s, "-") {
		return 0, &countError{s, "must be at least 1"}
	}
	if r == nil {
		return 0, &countError{s, "use a whole number such as 100M, 1.5M, 10k, 1e6 or 250000"}
	}
	r.Mul(r, new(big.Rat).SetInt64(countSuffix[m[2]]))
	switch {
	case !r.IsInt():
		return 0, &countError{s, "not a whole number (" + r.FloatString(3) + ")"}
	case r.Sign() == 0:
		return 0, &countError{s, "must be at least 1"}
	case !r.Num().IsInt64():
		return 0, &countError{s, fmt.Sprintf("too large (at most %d)", int64(math.MaxInt64))}
	}
	return r.Num().Int64(), nil
}

// Count is a flag.Value for counts (ParseCount): -points, -num.
type Count int64

// Set leaves the input out of its error: the flag package quotes it.
func (c *Count) Set(s string) error {
	n, err := ParseCount(s)
	if ce, ok := err.(*countError); ok {
		return errors.New(ce.reason)
	}
	*c = Count(n)
	return nil
}

func (c *Count) String() string { return harness.Count(int64(*c)) }

// Rate is a flag.Value for a rate per second: a count (40k, 1.5M) or,
// below one a second, a plain fraction (0.5).
type Rate float64

func (v *Rate) Set(s string) error {
	if n, err := ParseCount(s); err == nil {
		*v = Rate(n)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return errors.New("use a rate such as 40k, 1.5M, 250000 or 0.5")
	}
	*v = Rate(f)
	return nil
}

func (v *Rate) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }
