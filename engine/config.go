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
// Tables of other registered engines are ignored, so one file can configure
// them all. Unknown keys and tables are errors wrapping ErrConfig.
func LoadConfig(name, path string) (Options, error) {
	text, err := os.ReadFile(path)
	if err != nil {
		return Options{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return ParseConfig(name, string(text), path)
}

// ParseConfig is LoadConfig on text; source names it in error messages.
func ParseConfig(name, text, source string) (Options, error) {
	d, err := Lookup(name)
	if err != nil {
		return Options{}, err
	}
	var o Options
	md, err := toml.Decode(text, &o)
	if err != nil {
		return Options{}, fmt.Errorf("%w: %s: %v", ErrConfig, source, err)
	}
	var tables map[string]toml.Primitive
	mdt, err := toml.Decode(text, &tables)
	if err != nil {
		return Options{}, fmt.Errorf("%w: %s: %v", ErrConfig, source, err)
	}
	if prim, ok := tables[name]; ok {
		if d.NewOptions == nil {
			return Options{}, fmt.Errorf("%w: %s: engine %s has no options of its own; remove [%s]", ErrConfig, source, name, name)
		}
		o.Engine = d.NewOptions()
		if err := mdt.PrimitiveDecode(prim, o.Engine); err != nil {
			return Options{}, fmt.Errorf("%w: %s: [%s]: %v", ErrConfig, source, name, err)
		}
	}
	names := Names()
	var shared, own []string
	for _, k := range md.Undecoded() {
		if !slices.Contains(names, k[0]) {
			shared = append(shared, k.String())
		}
	}
	for _, k := range mdt.Undecoded() {
		if k[0] == name && len(k) > 1 {
			own = append(own, k.String())
		}
	}
	if len(shared) > 0 {
		return Options{}, fmt.Errorf("%w: %s: unknown key %s; the shared keys are %s, and each engine's own go in a table named after it, such as [%s]", ErrConfig, source, strings.Join(shared, ", "), strings.Join(sharedKeys(), ", "), name)
	}
	if len(own) > 0 {
		return Options{}, fmt.Errorf("%w: %s: unknown key %s; see configs/%s.toml for the valid keys", ErrConfig, source, strings.Join(own, ", "), name)
	}
	if _, err := o.WithDefaults(); err != nil {
		return Options{}, fmt.Errorf("%w: %s: %w", ErrConfig, source, err)
	}
	return o, nil
}

// sharedKeys lists the TOML keys of Options, for error messages.
func sharedKeys() []string {
	t := reflect.TypeFor[Options]()
	var keys []string
	for i := range t.NumField() {
		if k := t.Field(i).Tag.Get("toml"); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return keys
}
