package engine

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// LoadConfig reads TOML settings for the engine called name from path.
// Top-level keys are the shared Options (their toml tags); a table named
// after an engine, such as [rocksdb], holds that engine's own options.
// One file can configure every engine, so every table is checked, not
// only name's: a bad value for an engine that is not run is still an
// error. Unknown keys and tables are errors wrapping ErrConfig. Integer
// keys also take a size with a unit as a string: "64MiB", "64M" (see
// ParseSize).
func LoadConfig(name, path string) (Options, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return Options{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return ParseConfig(name, string(text), path)
}

// ParseConfig is LoadConfig on text; source names it in error messages.
func ParseConfig(name, text, source string) (Options, error) {
	if _, err := Lookup(name); err != nil {
		return Options{}, err
	}
	o, tables, _, err := parseConfig(text, source, nil)
	if err != nil {
		return Options{}, err
	}
	o.Engine = tables[name]
	return o, nil
}

// Resolver is implemented by a backend's options type (what its
// Driver.NewOptions returns) to fill in every default, given the shared
// options with theirs: some defaults follow them. It is the one place a
// backend's defaults are applied: Open resolves with it once (Resolved),
// config files are checked with it, and Effective reports what an engine
// really ran with. Resolving its own result must return it unchanged.
type Resolver interface {
	Resolve(shared Options) (any, error)
}

// parseConfig decodes the shared keys and the table of every registered
// engine that has one, sets the shared keys of typed over them
// (Override.Typed), and checks them all: tables are the engines' own
// options as written, resolved the same after their Resolver checked
// them, which Resolve keeps rather than resolving them again.
func parseConfig(text, source string, typed []Override) (o Options, tables, resolved map[string]any, err error) {
	bad := func(format string, args ...any) (Options, map[string]any, map[string]any, error) {
		return Options{}, nil, nil, fmt.Errorf("%w: %s: "+format, append([]any{ErrConfig, source}, args...)...)
	}
	md, err := decodeSizes(&o, func(v any) (toml.MetaData, error) { return toml.Decode(text, v) })
	if err != nil {
		return bad("%v", err)
	}
	for _, ov := range typed {
		if err := ov.set(&o); err != nil {
			return Options{}, nil, nil, err
		}
	}
	var prims map[string]toml.Primitive
	mdt, err := toml.Decode(text, &prims)
	if err != nil {
		return bad("%v", err)
	}
	names := Names()
	var unknown []string
	for _, k := range md.Undecoded() {
		if !slices.Contains(names, k[0]) {
			unknown = append(unknown, k.String())
		}
	}
	if len(unknown) > 0 {
		return bad("unknown key %s; the shared keys are %s, and each engine's own go in a table named after it, such as [rocksdb]", strings.Join(unknown, ", "), strings.Join(sharedKeys(), ", "))
	}
	shared, err := o.WithDefaults()
	if err != nil {
		return bad("%w", err)
	}
	tables, resolved = map[string]any{}, map[string]any{}
	for _, name := range names {
		prim, ok := prims[name]
		if !ok {
			continue
		}
		d, _ := Lookup(name)
		if d.NewOptions == nil {
			return bad("engine %s has no options of its own; remove [%s]", name, name)
		}
		own := d.NewOptions()
		if _, err := decodeSizes(own, func(v any) (toml.MetaData, error) { return mdt, mdt.PrimitiveDecode(prim, v) }); err != nil {
			return bad("[%s]: %v", name, err)
		}
		var unknown []string
		for _, k := range mdt.Undecoded() {
			if k[0] == name && len(k) > 1 {
				unknown = append(unknown, k.String())
			}
		}
		if len(unknown) > 0 {
			return bad("unknown key %s; %s's keys are %s (configs/%s.toml)", strings.Join(unknown, ", "), name, strings.Join(keysOf(reflect.TypeOf(own).Elem()), ", "), name)
		}
		tables[name] = own
		with := shared
		with.Engine = own
		if resolved[name], err = d.resolveOwn(name, with); err != nil {
			return bad("[%s]: %w", name, err)
		}
	}
	return o, tables, resolved, nil
}

// decodeSizes runs decode on a copy of the struct dst points to whose
// plain integer fields are sizes (so that they also take "64MiB"), then
// copies the result into dst.
func decodeSizes(dst any, decode func(any) (toml.MetaData, error)) (toml.MetaData, error) {
	v := reflect.ValueOf(dst).Elem()
	var fields []reflect.StructField
	var from []int // index in v of each field
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() || f.Tag.Get("toml") == "-" {
			continue
		}
		// Plain integers are sizes; named ones (time.Duration) decode
		// as their own type does.
		if k := f.Type.Kind(); k >= reflect.Int && k <= reflect.Int64 && f.Type.PkgPath() == "" {
			f.Type = reflect.TypeFor[size]()
		}
		f.Index, f.Offset = nil, 0
		fields = append(fields, f)
		from = append(from, i)
	}
	shadow := reflect.New(reflect.StructOf(fields))
	md, err := decode(shadow.Interface())
	if err != nil {
		return md, err
	}
	for j, i := range from {
		src, out := shadow.Elem().Field(j), v.Field(i)
		if src.Type() != reflect.TypeFor[size]() {
			out.Set(src)
			continue
		}
		if out.OverflowInt(src.Int()) {
			return md, fmt.Errorf("%s: %d is too large", v.Type().Field(i).Tag.Get("toml"), src.Int())
		}
		out.SetInt(src.Int())
	}
	return md, nil
}

// Effective is the options engine name runs with, as a config file would
// spell them with every default filled in: the shared keys, and the
// engine's own under its name (as in a [name] table) if it has any.
// Benchmark results record options this way, so that they read like the
// config that would reproduce them.
func Effective(name string, o Options) (map[string]any, error) {
	r, err := Resolved(name, &o)
	if err != nil {
		return nil, err
	}
	return spell(name, r)
}

// spell is r, resolved options of engine name, as Effective spells them.
func spell(name string, r Options) (map[string]any, error) {
	own := r.Engine
	r.Engine = nil
	out, err := tomlMap(r)
	if err != nil || own == nil {
		return out, err
	}
	if out[name], err = tomlMap(own); err != nil {
		return nil, err
	}
	return out, nil
}

// tomlMap is v as a TOML table: its keys are v's toml tags.
func tomlMap(v any) (map[string]any, error) {
	var b strings.Builder
	if err := toml.NewEncoder(&b).Encode(v); err != nil {
		return nil, fmt.Errorf("engine: encode options: %w", err)
	}
	m := map[string]any{}
	if _, err := toml.Decode(b.String(), &m); err != nil {
		return nil, fmt.Errorf("engine: encode options: %w", err)
	}
	return m, nil
}

// sharedKeys lists the TOML keys of Options, for error messages.
func sharedKeys() []string { return keysOf(reflect.TypeFor[Options]()) }
