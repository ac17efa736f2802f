// Package defaults is what a backend's Resolve (engine.Resolver) fills in
// its own options with: Fill sets the numeric ones, where zero means the
// default and a negative number is a mistake, so that every engine refuses
// one with the same message naming the key and its default.
package defaults

import (
	"fmt"

	"github.com/tsbench/storage/engine"
)

// number is what a numeric option may be; time.Duration is an int64.
type number interface{ ~int | ~int64 | ~float64 }

// Field is one numeric option, made by Of.
type Field func() error

// Of is the option under the config key key, stored at v, whose default
// is def.
func Of[T number](key string, v *T, def T) Field {
	return func() error {
		switch {
		case *v < 0:
			return fmt.Errorf("%s is %v; use a positive number, or 0 for the default %v", key, *v, def)
		case *v == 0:
			*v = def
		}
		return nil
	}
}

// In is Of for an option that must also lie in [lo, hi] once its default
// is filled in: outside it the library the option goes to panics,
// allocates without limit or fails only once it runs.
func In[T number](key string, v *T, def, lo, hi T) Field {
	return func() error {
		if *v == 0 {
			*v = def
		}
		if !(*v >= lo && *v <= hi) { // also refuses NaN
			return fmt.Errorf("%s is %v; use %v to %v, or 0 for the default %v", key, *v, lo, hi, def)
		}
		return nil
	}
}

// Fill sets each zero field to its default, in order, or returns an error
// wrapping engine.ErrInvalidOptions for the first negative one; name is
// the engine's.
func Fill(name string, fields ...Field) error {
	for _, f := range fields {
		if err := f(); err != nil {
			return fmt.Errorf("%w: %s: %w", engine.ErrInvalidOptions, name, err)
		}
	}
	return nil
}
