package engine

import (
	"fmt"
	"strings"
	"time"
)

// checkExpiry refuses o's Expiry for engine name if its driver d has no
// expiry of its own, before anything is created.
func (d Driver) checkExpiry(name string, o Options) error {
	if o.Expiry == 0 || d.Expiry {
		return nil
	}
	return noExpiry(name)
}

// noExpiry is the error for engine name, which does not expire entries:
// one line naming the engines that do.
func noExpiry(name string) error {
	which := "no engine of this build expires them"
	if names := ExpiringNames(); len(names) > 0 {
		which = "the engines that expire them are " + strings.Join(names, ", ")
	}
	return fmt.Errorf("%w: %s keeps entries until they are deleted; %s", ErrNoExpiry, name, which)
}

// ExpiringNames returns the registered engines that expire entries by
// themselves (Driver.Expiry), sorted.
func ExpiringNames() []string {
	return namesWhere(func(d Driver) bool { return d.Expiry })
}

// ExpiryOf returns the Expiry e was opened with, 0 for none, or an error
// wrapping ErrNoExpiry if e's engine has no expiry: one that was not
// opened with Open, or whose driver has none.
func ExpiryOf(e Engine) (time.Duration, error) {
	h, ok := e.(interface{ expiry() (time.Duration, error) })
	if !ok {
		return 0, noExpiry(fmt.Sprintf("%T, which was not opened with engine.Open,", e))
	}
	return h.expiry()
}

// expiry is ExpiryOf for an engine from Open.
func (h *handle) expiry() (time.Duration, error) {
	if d, err := Lookup(h.name); err != nil || !d.Expiry {
		return 0, noExpiry(h.name)
	}
	return h.opts.Expiry, nil
}
