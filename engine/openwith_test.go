package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

func TestOpenWith(t *testing.T) {
	db, err := engine.OpenWith("testmem", t.TempDir(), &engine.Options{Sync: engine.SyncBatch}, &testmemOptions{Level: 7})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	o := testmem.lastOptions()
	if own, ok := o.Engine.(*testmemOptions); !ok || own.Level != 7 || o.Sync != engine.SyncBatch {
		t.Errorf("the driver received %+v, want sync batch and its own options at level 7", o)
	}

	db2, err := engine.OpenWith[testmemOptions]("testmem", t.TempDir(), nil, nil)
	if err != nil {
		t.Fatalf("OpenWith with nil options: %v", err)
	}
	defer db2.Close()
	if own, err := engine.OptionsFor[testmemOptions](testmem.lastOptions(), "testmem"); err != nil || *own != (testmemOptions{Level: 3}) {
		t.Errorf("the driver's options from a nil own = %+v, %v; want its defaults, level 3", own, err)
	}

	type otherOptions struct{ Level int }
	dir := t.TempDir() + "/never"
	for _, c := range []struct {
		name string
		open func() (engine.Engine, error)
		want string
	}{
		{"another engine's type", func() (engine.Engine, error) {
			return engine.OpenWith("testmem", dir, nil, &otherOptions{})
		}, "testmemOptions"},
		{"an engine without options", func() (engine.Engine, error) {
			return engine.OpenWith("testplain", dir, nil, &otherOptions{})
		}, "engine.Open"},
	} {
		db, err := c.open()
		if err == nil {
			db.Close()
		}
		if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("OpenWith with %s = %v, want engine.ErrInvalidOptions naming %s", c.name, err, c.want)
		}
	}
	if _, err := engine.OpenWith("nosuch", dir, nil, &otherOptions{}); !errors.Is(err, engine.ErrUnknownEngine) {
		t.Errorf("OpenWith of an unknown engine = %v, want engine.ErrUnknownEngine", err)
	}
}
