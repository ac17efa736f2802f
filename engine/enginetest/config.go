package enginetest

import (
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
