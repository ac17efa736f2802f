package suite

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
)

// Flags are every registered workload's own flags, defined on one flag
// set, each setting its workload's settings.
type Flags struct {
	settings map[string]any      // by workload: its *S
	owners   map[string][]string // by flag: the workloads that define it, by name
}

// DefineFlags defines every registered workload's own flags on fs, after
// the command's own. A flag that several workloads define (the mixed and
// steady workloads' -rate, whose help text is written once) is defined
// once, with the text of the first by name, and sets every one's
// settings. It panics if a workload defines a flag of the command.
func DefineFlags(fs *flag.FlagSet) *Flags {
	f := &Flags{settings: map[string]any{}, owners: map[string][]string{}}
	for _, name := range Names() {
		s, _ := Lookup(name)
		own := flag.NewFlagSet(name, flag.ContinueOnError)
		settings := s.w.defaults()
		s.w.flags(own, settings)
		f.settings[name] = settings
		own.VisitAll(func(fl *flag.Flag) {
			prev := fs.Lookup(fl.Name)
			switch {
			case prev == nil:
				fs.Var(fl.Value, fl.Name, fl.Usage)
			case len(f.owners[fl.Name]) == 0:
				panic("suite: workload " + name + " defines -" + fl.Name + ", a flag of the command")
			default:
				prev.Value = fanOut{prev.Value, fl.Value}
			}
			f.owners[fl.Name] = append(f.owners[fl.Name], name)
		})
	}
	return f
}

// Owners are the workloads that define flag name, in name order; none
// for a flag of the command. The flag reference groups flags by them.
func (f *Flags) Owners(name string) []string { return slices.Clone(f.owners[name]) }

// Configure is workload name with the settings its flags set, once they
// are parsed: it refuses the flags set, in the order given, that the
// workload does not take (Refuser), then completes and checks its
// settings and c (Workload.Configure). Every error wraps ErrInvalid or
// ErrUnknown.
func (f *Flags) Configure(name string, c *Common, set []string) (*Config, error) {
	s, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	for _, n := range set {
		owners := f.owners[n]
		if slices.Contains(owners, s.name) {
			continue
		}
		if err := s.w.refuse(n); err != nil {
			return nil, err
		}
		if len(owners) > 0 {
			// Every workload that takes it, each with how to pick it.
			var of, add []string
			for _, name := range owners {
				o, _ := Lookup(name)
				of, add = append(of, o.info.About), append(add, o.info.Add)
			}
			return nil, Invalidf("-%s is a setting of %s: %s", n, strings.Join(of, " and of "), strings.Join(add, ", or "))
		}
	}
	settings := f.settings[s.name]
	if err := s.w.configure(settings, c, func(n string) bool { return slices.Contains(set, n) }); err != nil {
		return nil, err
	}
	return &Config{Suite: s, settings: settings}, nil
}

// Refuse is the message of a workload (Refuser) that refuses flag, one of
// refused: it is not a setting of the workload, which takes what takes
// lists. Nil for another flag.
func Refuse(flag string, refused []string, workload, takes string) error {
	if !slices.Contains(refused, flag) {
		return nil
	}
	return Invalidf("-%s is not a setting of -workload %s, which takes %s: drop -%s", flag, workload, takes, flag)
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

// UnquoteUsage is flag.UnquoteUsage for a flag on a flag set of
// DefineFlags: one that several workloads define is named after the type
// of the first one's value, as it would be alone (-duration duration).
func UnquoteUsage(f *flag.Flag) (name, usage string) {
	first := *f
	for {
		fo, ok := first.Value.(fanOut)
		if !ok || len(fo) == 0 {
			break
		}
		first.Value = fo[0]
	}
	return flag.UnquoteUsage(&first)
}

// fanOut is a flag several workloads define: setting it sets each.
type fanOut []flag.Value

func (f fanOut) Set(s string) error {
	for _, v := range f {
		if err := v.Set(s); err != nil {
			return err
		}
	}
	return nil
}

func (f fanOut) String() string {
	if len(f) == 0 {
		return "" // the flag package's zero value
	}
	return f[0].String()
}

// Get is the first workload's value, as flag.Getter gives it: a duration
// flag of several workloads is one too.
func (f fanOut) Get() any {
	if len(f) == 0 {
		return nil
	}
	if g, ok := f[0].(flag.Getter); ok {
		return g.Get()
	}
	return nil
}

// IsBoolFlag makes a bool flag of several workloads one too.
func (f fanOut) IsBoolFlag() bool {
	if len(f) == 0 {
		return false
	}
	b, ok := f[0].(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}
