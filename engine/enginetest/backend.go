package enginetest

import (
	"errors"
	"reflect"
	"testing"

	"github.com/tsbench/storage/engine"
)

// RunEngine runs the suite on the engine registered as name, opened with
// opts (nil for the defaults): a backend's whole acceptance test.
func RunEngine(t *testing.T, name string, opts *engine.Options) {
	Run(t, func(t *testing.T, dir string) (engine.Engine, error) {
		return engine.Open(name, dir, opts)
	})
}

// Open opens the engine registered as name in dir with opts (nil for the
// defaults), failing the test if it cannot, and closes it when the test
// ends unless the test closed it.
func Open(t testing.TB, name, dir string, opts *engine.Options) engine.Engine {
	t.Helper()
	db, err := engine.Open(name, dir, opts)
	if err != nil {
		t.Fatalf("open %s in %s: %v", name, dir, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// NewIterator returns an iterator of r within opts, failing the test if r
// cannot make one. The caller closes it, before it closes r.
func NewIterator(t testing.TB, r engine.Reader, opts engine.IterOptions) engine.Iterator {
	t.Helper()
	it, err := r.NewIterator(opts)
	if err != nil {
		t.Fatalf("NewIterator(%s, %s): %v", show(opts.LowerBound), show(opts.UpperBound), err)
	}
	return it
}

// BadOptions checks that engine.Open refuses each of own, options of the
// engine registered as name, with an error wrapping
// engine.ErrInvalidOptions: the values beyond the numeric bounds that
// engine/all checks for every engine, such as a misspelled mode.
func BadOptions(t *testing.T, name string, own ...any) {
	t.Helper()
	for _, o := range own {
		db, err := engine.Open(name, t.TempDir(), &engine.Options{Engine: o})
		if err == nil {
			db.Close()
		}
		if !errors.Is(err, engine.ErrInvalidOptions) {
			t.Errorf("open %s with %+v = %v, want an error wrapping engine.ErrInvalidOptions", name, o, err)
		}
	}
}

// Config checks that the engine's shipped config file,
// ../../configs/<name>.toml from the backend's package, loads and spells
// out the real defaults, shared and the engine's own, so the file cannot
// drift from the Options it documents.
func Config(t *testing.T, name string) {
	t.Helper()
	o, err := engine.LoadConfig(name, "../../configs/"+name+".toml")
	if err != nil {
		t.Fatal(err)
	}
	own := o.Engine
	o.Engine = nil
	if shared, _ := (&engine.Options{}).WithDefaults(); o != shared {
		t.Errorf("configs/%s.toml: shared options %+v, want the defaults %+v", name, o, shared)
	}
	d, err := engine.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	if d.NewOptions == nil {
		if own != nil {
			t.Errorf("configs/%s.toml: %s has no options of its own, the file gave %T", name, name, own)
		}
		return
	}
	zero := d.NewOptions()
	if reflect.TypeOf(own) != reflect.TypeOf(zero) {
		t.Fatalf("configs/%s.toml: [%s] decoded as %T, want %T", name, name, own, zero)
	}
	resolve := func(v any) any {
		r, ok := v.(engine.Resolver)
		if !ok {
			return v
		}
		res, err := r.Resolve(o)
		if err != nil {
			t.Fatalf("configs/%s.toml: [%s]: %v", name, name, err)
		}
		return res
	}
	if got, want := resolve(own), resolve(zero); !reflect.DeepEqual(got, want) {
		t.Errorf("configs/%s.toml: [%s] = %+v, want the defaults %+v", name, name, got, want)
	}
}
