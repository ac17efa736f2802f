package suite

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
)

// Shared flags: the settings of Common, which the command defines for
// the workloads that take them (Info.Shared).
const (
	FlagPoints   = "points"
	FlagSeries   = "series"
	FlagBatch    = "batch"
	FlagSeed     = "seed"
	FlagInterval = "interval"
	FlagDataset  = "dataset"
	// FlagValues and FlagValueEncoding set Common.Values.
	FlagValues        = "values"
	FlagValueEncoding = "value-encoding"
	// FlagPercentiles sets Common.Percentiles.
	FlagPercentiles = "percentiles"
	// FlagCold sets Common.Cold.
	FlagCold = "cold"
)

// NewConfig is workload s with its default settings and its own flags
// defined on fs, which set them; once fs is parsed, Configure completes
// and checks them.
func (s *Suite) NewConfig(fs *flag.FlagSet) *Config {
	settings := s.w.defaults()
	s.w.flags(fs, settings)
	return &Config{Suite: s, settings: settings}
}

// Configure completes and checks c's settings and common once the flags
// are parsed (Workload.Configure); given tells which flags the command
// line set. Its error wraps ErrInvalid and names the fix in one line.
func (c *Config) Configure(common *Common, given Given) error {
	return c.w.configure(c.settings, common, given)
}

// Takes reports whether workload s takes flag name: one of its own, or a
// shared one it names in Info.Shared.
func (s *Suite) Takes(name string) bool {
	if slices.Contains(s.info.Shared, name) {
		return true
	}
	fs := flag.NewFlagSet(s.name, flag.ContinueOnError)
	s.w.flags(fs, s.w.defaults())
	return fs.Lookup(name) != nil
}

// Taking are the registered workloads that take flag name (Takes), in
// name order: what a message about a flag another workload was given
// names.
func Taking(name string) []*Suite {
	var out []*Suite
	for _, n := range Names() {
		if s, _ := Lookup(n); s.Takes(name) {
			out = append(out, s)
		}
	}
	return out
}

// Invalidf is a mistake in the settings: an error wrapping ErrInvalid.
func Invalidf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))
}

// Invalid is err, a Validate error of a workload's package starting with
// prefix, its ErrInvalidConfig, as a mistake in the settings without
// that prefix: the message names the flag. Nil for nil.
func Invalid(err, prefix error) error {
	if err == nil {
		return nil
	}
	return Invalidf("%v", Unprefixed(err, prefix))
}

// Unprefixed drops prefix, the sentinel a package starts its errors with
// (a workload's ErrInvalidConfig), from err: the flag package, or the
// message around it, names the flag. Nil for nil.
func Unprefixed(err, prefix error) error {
	if err == nil {
		return nil
	}
	return errors.New(strings.TrimPrefix(err.Error(), prefix.Error()+": "))
}
