package querymix

import (
	"fmt"
	"strconv"
	"strings"
)

// The query kinds readers draw. They are stable identifiers for JSON, CSV
// and -mix.
const (
	// KindLast reads the latest point of a series: a reverse seek.
	KindLast = "last"
	// KindRecent reads the last Window of a series.
	KindRecent = "recent"
	// KindRange reads a random time range of a series.
	KindRange = "range"
	// KindScan reads a whole series.
	KindScan = "scan"
	// KindMulti reads the last Window of MultiSeries series under one
	// snapshot.
	KindMulti = "multi"
)

// QueryKinds lists the query kinds in the order reports show them.
var QueryKinds = []string{KindLast, KindRecent, KindRange, KindScan, KindMulti}

// Mix weighs the query kinds: a reader draws each query's kind with
// probability weight / sum of weights. Zero leaves a kind out.
type Mix struct {
	Last   int `json:"last"`
	Recent int `json:"recent"`
	Range  int `json:"range"`
	Scan   int `json:"scan"`
	Multi  int `json:"multi"`
}

// DefaultMix is what a dashboard over a TSDB mostly asks: latest values
// and recent windows, some ranges, few whole-series scans.
var DefaultMix = Mix{Last: 40, Recent: 30, Range: 20, Scan: 5, Multi: 5}

// weights lists the weights in QueryKinds order.
func (m Mix) weights() [5]int { return [5]int{m.Last, m.Recent, m.Range, m.Scan, m.Multi} }

// Weight returns the weight of kind, 0 for a kind that is not a query.
func (m Mix) Weight(kind string) int {
	for i, k := range QueryKinds {
		if k == kind {
			return m.weights()[i]
		}
	}
	return 0
}

// String is m as ParseMix reads it, the kinds left out omitted:
// "last=40,recent=30".
func (m Mix) String() string {
	var parts []string
	for i, w := range m.weights() {
		if w > 0 {
			parts = append(parts, QueryKinds[i]+"="+strconv.Itoa(w))
		}
	}
	return strings.Join(parts, ",")
}

// ParseMix reads a comma list of kinds with optional weights,
// "last=50,recent=30,scan=20"; a kind without a weight weighs 1, so
// "last,recent" draws each half the time. Unknown kinds and weights that
// are not positive integers are errors naming the valid ones.
func ParseMix(s string) (Mix, error) {
	var m Mix
	seen := map[string]bool{}
	for _, part := range strings.Split(s, ",") {
		kind, weight, hasWeight := strings.Cut(strings.TrimSpace(part), "=")
		w := 1
		if hasWeight {
			n, err := strconv.Atoi(weight)
			if err != nil || n <= 0 {
				return Mix{}, fmt.Errorf("%w: -mix %q: weight %q of %s is not a positive whole number; write kind=weight such as last=40", ErrInvalid, s, weight, kind)
			}
			w = n
		}
		if seen[kind] {
			return Mix{}, fmt.Errorf("%w: -mix %q names %s twice; give each kind once", ErrInvalid, s, kind)
		}
		seen[kind] = true
		switch kind {
		case KindLast:
			m.Last = w
		case KindRecent:
			m.Recent = w
		case KindRange:
			m.Range = w
		case KindScan:
			m.Scan = w
		case KindMulti:
			m.Multi = w
		default:
			return Mix{}, fmt.Errorf("%w: -mix %q: unknown query kind %q; use %s", ErrInvalid, s, kind, strings.Join(QueryKinds, ", "))
		}
	}
	return m, nil
}

// Validate reports weights that cannot be drawn from: a negative one, or
// none above 0 while readers would draw.
func (m Mix) Validate(readers int) error {
	sum := 0
	for _, w := range m.weights() {
		if w < 0 {
			return fmt.Errorf("%w: mix %+v has a negative weight; use weights of 0 or more", ErrInvalid, m)
		}
		sum += w
	}
	if sum == 0 && readers > 0 {
		return fmt.Errorf("%w: %d readers but no query kind in the mix; give -mix kinds such as last,recent", ErrInvalid, readers)
	}
	return nil
}

// Picker draws query kinds by weight with one random number each.
type Picker struct {
	cum [5]uint64 // cumulative weights
}

// NewPicker returns the picker of m's weights, of which one at least is
// above 0 (Validate).
func NewPicker(m Mix) Picker {
	var p Picker
	var sum uint64
	for i, w := range m.weights() {
		sum += uint64(w)
		p.cum[i] = sum
	}
	return p
}

// Pick returns the index in QueryKinds of the kind drawn by r, a uniform
// random number.
func (p Picker) Pick(r uint64) int {
	x := r % p.cum[4]
	for i, c := range p.cum {
		if x < c {
			return i
		}
	}
	return len(p.cum) - 1
}
