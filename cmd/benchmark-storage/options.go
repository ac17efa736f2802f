package main

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/workload/suite"
)

// resolveOptions resolves every engine's options once, in the parent,
// into s.specs: the -config file (read once), then the flags that
// override it (-sync, -cache-size, -compression, -etcd-endpoints), then
// -set, each as if its key were written in the file (engine.Resolve).
// Children get the result in their job and parse nothing.
func resolveOptions(s *settings) error {
	text := ""
	if s.config != "" {
		b, err := os.ReadFile(s.config)
		if errors.Is(err, fs.ErrNotExist) {
			return inputErrorf("-config %s does not exist: give the path of a TOML file such as configs/%s.toml", s.config, s.engineOf(s.engines[0]))
		} else if err != nil {
			return inputErrorf("-config: %v", err)
		}
		text = string(b)
	}
	s.specs = map[string]engine.Spec{}
	for _, o := range s.overrides() {
		if slices.Contains(engine.Names(), o.Engine) && !slices.ContainsFunc(s.engines, func(n string) bool { return s.engineOf(n) == o.Engine }) {
			// A setting that would silently change nothing.
			return inputErrorf("%s is a setting of %s, which this run does not include: add it to -engine, or leave the setting out", o, o.Engine)
		}
	}
	for _, name := range s.engines {
		opts, err := engine.Resolve(s.engineOf(name), text, s.config, s.overrides())
		if err != nil {
			return inputErrorf("%v", err)
		}
		spec := engine.Spec{Name: s.engineOf(name), Options: opts}
		if _, err := spec.Effective(); err != nil {
			return inputErrorf("%v", err)
		}
		s.specs[name] = spec
	}
	return nil
}

// workloadOptions sets in s.specs what the workload needs of each
// engine's options (suite.EngineOptioner: the steady-state workload's ttl
// method, an expiry), refusing an engine that cannot take it in one line
// before anything is created.
func workloadOptions(s *settings) error {
	for _, name := range s.engines {
		spec := s.specs[name]
		opts, err := s.workload.EngineOptions(spec.Name, spec.Options)
		if err != nil {
			return inputErrorf("-engine %s: %v", name, suite.Unprefixed(err, suite.ErrInvalid))
		}
		spec.Options = opts
		if _, err := spec.Effective(); err != nil {
			return inputErrorf("%v", err)
		}
		s.specs[name] = spec
	}
	return nil
}

// effective is engine name's options as results record them
// (engine.Spec.Effective), which resolveOptions found it can spell.
func (s *settings) effective(name string) map[string]any {
	eff, _ := s.specs[name].Effective()
	return eff
}

// overrides are the engine settings given as flags, in the order they
// apply: the shared flags, -etcd-endpoints (an alias of -set
// etcd.endpoints), then -set.
func (s *settings) overrides() []engine.Override {
	var out []engine.Override
	// The flags' values as they parsed them, typed (engine.Override.Typed).
	shared := func(key string, value any) { out = append(out, engine.Override{Key: key, Typed: value}) }
	if s.sync != "" {
		shared("sync", s.sync)
	}
	if f := s.engineFlags; f.cacheSize > 0 {
		shared("cache_size", f.cacheSize)
	}
	if f := s.engineFlags; f.compression != "" {
		shared("disable_compression", f.compression == "off")
	}
	if eps := s.engineFlags.etcd.endpoints; eps != "" {
		out = append(out, engine.Override{Engine: "etcd", Key: "endpoints", Value: eps})
		// A given cluster outlives the run directory, which the parent
		// removes: the run's keys go with it unless -keep.
		out = append(out, engine.Override{Engine: "etcd", Key: "drop_on_close", Value: strconv.FormatBool(!s.keep)})
	}
	return append(out, s.sets...)
}

// setValue is -set: repeatable, each ENGINE.KEY=VALUE or KEY=VALUE.
type setValue []engine.Override

func (v *setValue) Set(s string) error {
	o, err := engine.ParseOverride(s)
	if err != nil {
		return suite.Unprefixed(err, engine.ErrConfig)
	}
	*v = append(*v, o)
	return nil
}

func (v *setValue) String() string {
	var parts []string
	for _, o := range *v {
		parts = append(parts, o.String())
	}
	return strings.Join(parts, " ")
}
