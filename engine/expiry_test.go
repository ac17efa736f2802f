package engine_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// An engine that says it has an expiry, to resolve and open with one.
func init() {
	engine.Register("testexpiry", engine.Driver{
		Open:   func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil },
		Expiry: true,
	})
}

// TestExpiry: an engine with expiry takes one from a config file, an
// override or Options, spells it in its effective options, and reports
// the one it was opened with.
func TestExpiry(t *testing.T) {
	over, err := engine.ParseOverride("expiry=3s")
	if err != nil {
		t.Fatal(err)
	}
	o, err := engine.Resolve("testexpiry", "expiry = \"2s\"\n", "test.toml", nil)
	if err != nil || o.Expiry != 2*time.Second {
		t.Fatalf("Resolve with expiry = \"2s\": %v, %v", o.Expiry, err)
	}
	if o, err = engine.Resolve("testexpiry", "expiry = \"2s\"\n", "test.toml", []engine.Override{over}); err != nil || o.Expiry != 3*time.Second {
		t.Fatalf("Resolve with expiry=3s over the file's 2s: %v, %v", o.Expiry, err)
	}
	if eff, err := engine.Effective("testexpiry", o); err != nil || eff["expiry"] != "3s" {
		t.Errorf("Effective = %v, %v; want expiry 3s", eff, err)
	}
	if eff, err := engine.Effective("testexpiry", engine.Options{}); err != nil || eff["expiry"] != nil {
		t.Errorf("Effective without an expiry = %v, %v; want none spelled", eff, err)
	}
	db, err := engine.Open("testexpiry", t.TempDir(), &o)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if d, err := engine.ExpiryOf(db); d != 3*time.Second || err != nil {
		t.Errorf("ExpiryOf = %v, %v; want 3s", d, err)
	}
}

// TestExpiryRefused: an engine without expiry refuses an Expiry in one
// line naming those with one, before anything is created, whether
// opened or resolved, and ExpiryOf says it has none.
func TestExpiryRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	o := engine.Options{Expiry: time.Minute}
	_, err := engine.Open("testplain", dir, &o)
	if !errors.Is(err, engine.ErrNoExpiry) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "the engines that expire them are testexpiry") {
		t.Errorf("Open with an expiry: %v, want one line wrapping ErrNoExpiry naming testexpiry", err)
	}
	if _, serr := os.Stat(dir); !errors.Is(serr, os.ErrNotExist) {
		t.Errorf("the refused Open created %s: %v", dir, serr)
	}
	if _, err := engine.Resolve("testplain", "expiry = \"1m\"\n", "test.toml", nil); !errors.Is(err, engine.ErrNoExpiry) {
		t.Errorf("Resolve with an expiry: %v, want ErrNoExpiry", err)
	}
	db, err := engine.Open("testplain", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, e := range []engine.Engine{db, memory.New()} {
		if d, err := engine.ExpiryOf(e); !errors.Is(err, engine.ErrNoExpiry) || d != 0 {
			t.Errorf("ExpiryOf(%T) = %v, %v; want ErrNoExpiry", e, d, err)
		}
	}
}

// TestExpiryBounds: an expiry that is negative or not whole seconds is
// refused, naming the fix.
func TestExpiryBounds(t *testing.T) {
	for _, tc := range []struct {
		expiry time.Duration
		want   string
	}{
		{-time.Second, "give 0 for none"},
		{1500 * time.Millisecond, "whole seconds; give 2s"},
	} {
		o := engine.Options{Expiry: tc.expiry}
		if _, err := o.WithDefaults(); !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("expiry %v: %v, want %q", tc.expiry, err, tc.want)
		}
	}
}
