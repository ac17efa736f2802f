package suite

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsbench/storage/internal/measure"
)

// Percentiles is a flag.Value for -percentiles (Common.Percentiles): a
// comma-separated list such as 99.9,99.99, checked as it is parsed
// (measure.CheckPercentiles).
type Percentiles []float64

func (v *Percentiles) Set(s string) error {
	var qs []float64
	for _, f := range strings.Split(s, ",") {
		q, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return fmt.Errorf("%q is not a number: give a list such as 99.9,99.99", f)
		}
		qs = append(qs, q)
	}
	if err := measure.CheckPercentiles(qs); err != nil {
		return err
	}
	*v = qs
	return nil
}

func (v *Percentiles) String() string {
	var fs []string
	for _, q := range *v {
		fs = append(fs, strconv.FormatFloat(q, 'f', -1, 64))
	}
	return strings.Join(fs, ",")
}
