package engine_test

import (
	"errors"
	"testing"

	"github.com/tsbench/storage/engine"
)

func TestWithDefaults(t *testing.T) {
	defaults := engine.Options{
		Sync:            engine.SyncNone,
		CacheSize:       engine.DefaultCacheSize,
		WriteBufferSize: engine.DefaultWriteBufferSize,
		MaxOpenFiles:    engine.DefaultMaxOpenFiles,
		BloomBitsPerKey: engine.DefaultBloomBitsPerKey,
	}
	var nilOpts *engine.Options
	if got, err := nilOpts.WithDefaults(); err != nil || got != defaults {
		t.Errorf("nil.WithDefaults() = %+v, %v; want %+v", got, err, defaults)
	}
	if got, err := (&engine.Options{}).WithDefaults(); err != nil || got != defaults {
		t.Errorf("zero.WithDefaults() = %+v, %v; want %+v", got, err, defaults)
	}

	set := engine.Options{Sync: engine.SyncBatch, CacheSize: 1, WriteBufferSize: 2, DisableCompression: true, MaxOpenFiles: 3, BloomBitsPerKey: -1}
	orig := set
	if got, err := set.WithDefaults(); err != nil || got != orig {
		t.Errorf("WithDefaults changed set fields: %+v, %v; want %+v", got, err, orig)
	}
	zero := engine.Options{}
	zero.WithDefaults()
	if zero != (engine.Options{}) {
		t.Errorf("WithDefaults modified its receiver: %+v", zero)
	}

	for _, bad := range []engine.Options{
		{Sync: "always"},
		{CacheSize: -1},
		{WriteBufferSize: -1},
		{MaxOpenFiles: -1},
	} {
		if _, err := bad.WithDefaults(); !errors.Is(err, engine.ErrInvalidOptions) {
			t.Errorf("%+v.WithDefaults() = %v, want ErrInvalidOptions", bad, err)
		}
	}
}

func TestOptionsFor(t *testing.T) {
	got, err := engine.OptionsFor[testmemOptions](engine.Options{}, "testmem")
	if err != nil || got == nil || *got != (testmemOptions{}) {
		t.Errorf("nil Engine: %+v, %v; want a new zero value", got, err)
	}
	var typedNil *testmemOptions
	got, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: typedNil}, "testmem")
	if err != nil || got == nil {
		t.Errorf("typed nil Engine: %v, %v; want a new zero value", got, err)
	}
	mine := &testmemOptions{Level: 3}
	got, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: mine}, "testmem")
	if err != nil || got != mine {
		t.Errorf("own type: %v, %v; want the same pointer", got, err)
	}
	type otherOptions struct{ Level int }
	_, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: &otherOptions{}}, "testmem")
	if !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("another engine's options: %v, want ErrInvalidOptions", err)
	}
	_, err = engine.OptionsFor[testmemOptions](engine.Options{Engine: testmemOptions{}}, "testmem")
	if !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("a value instead of a pointer: %v, want ErrInvalidOptions", err)
	}
}
