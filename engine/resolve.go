package engine

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// Override is one setting given beside a config file, as its key would be
// written in it: a key of an engine's own table (Engine "rocksdb", Key
// "max_background_jobs") or a shared key (Engine "").
type Override struct {
	Engine, Key string
	// Value is written as in TOML (8, true, "64MiB", ["a:1", "b:2"]);
	// text that is no TOML value is a string, and for a list key a
	// comma-separated list of strings (a:1,b:2).
	Value string
	// Typed, if not nil, is the value of a shared key as a program holds
	// it already (a flag's int64 for cache_size), set into the key's
	// field as it is, in place of Value: a value parsed once is not
	// written out as text to be parsed again.
	Typed any
}

// ParseOverride reads ENGINE.KEY=VALUE, a key of ENGINE's own table, or
// KEY=VALUE, a shared key. Whether the engine and key exist is Resolve's
// to check.
func ParseOverride(s string) (Override, error) {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return Override{}, fmt.Errorf("%w: %q: write ENGINE.KEY=VALUE, such as rocksdb.max_background_jobs=8, or KEY=VALUE for a shared key such as cache_size=64MiB", ErrConfig, s)
	}
	e, key, ok := strings.Cut(k, ".")
	if !ok {
		e, key = "", k
	}
	return Override{Engine: e, Key: key, Value: strings.TrimSpace(v)}, nil
}

func (o Override) String() string {
	v := o.Value
	if o.Typed != nil {
		v = fmt.Sprint(o.Typed)
	}
	if o.Engine == "" {
		return o.Key + "=" + v
	}
	return o.Engine + "." + o.Key + "=" + v
}

// set sets o, a typed override of a shared key, in opts.
func (o Override) set(opts *Options) error {
	t := reflect.TypeFor[Options]()
	f, ok := fieldOf(t, o.Key)
	if !ok || o.Engine != "" {
		return fmt.Errorf("%w: %s: a typed value is for a shared key; the shared keys are %s", ErrConfig, o, strings.Join(keysOf(t), ", "))
	}
	v := reflect.ValueOf(o.Typed)
	if !v.Type().ConvertibleTo(f.Type) || v.Kind() != f.Type.Kind() {
		return fmt.Errorf("%w: %s: %s takes a %s, not a %T", ErrConfig, o, o.Key, f.Type, o.Typed)
	}
	reflect.ValueOf(opts).Elem().FieldByIndex(f.Index).Set(v.Convert(f.Type))
	return nil
}

// Resolve returns the options engine name runs with, resolved once: the
// TOML text config (source names it in errors; "" for no file), with the
// overrides applied as if they were written in it, and every default
// filled in, the backend's own too (its Resolver), so that Options.Engine
// holds a pointer to the backend's complete Options. As with LoadConfig,
// every engine's table and every override is checked, not only name's.
// Errors wrap ErrConfig (a malformed file, an unknown engine or key) or
// ErrInvalidOptions (a value out of bounds), in one line naming the valid
// choices or the fix.
func Resolve(name, config, source string, overrides []Override) (Options, error) {
	if _, err := Lookup(name); err != nil {
		return Options{}, err
	}
	doc := map[string]any{}
	if config != "" {
		if _, err := toml.Decode(config, &doc); err != nil {
			return Options{}, fmt.Errorf("%w: %s: %v", ErrConfig, source, err)
		}
	}
	var typed []Override
	for i, ov := range overrides {
		if ov.Typed == nil {
			if err := apply(doc, ov); err != nil {
				return Options{}, err
			}
			continue
		}
		// Set after the file is read, unless a later override writes
		// the same key.
		if !slices.ContainsFunc(overrides[i+1:], func(o Override) bool { return o.Engine == ov.Engine && o.Key == ov.Key }) {
			typed = append(typed, ov)
		}
	}
	var text strings.Builder
	if err := toml.NewEncoder(&text).Encode(doc); err != nil {
		return Options{}, fmt.Errorf("%w: %s: %v", ErrConfig, source, err)
	}
	label := source
	if len(overrides) > 0 {
		label = strings.TrimSpace(fmt.Sprintf("%s with overrides %v", source, overrides))
	}
	o, _, resolved, err := parseConfig(text.String(), label, typed)
	if err != nil {
		return Options{}, err
	}
	own, ok := resolved[name]
	if !ok {
		return Resolved(name, &o) // no table: the defaults
	}
	// parseConfig resolved the table already.
	if o, err = o.WithDefaults(); err != nil {
		return Options{}, err
	}
	d, _ := Lookup(name)
	if err := d.checkExpiry(name, o); err != nil {
		return Options{}, err
	}
	o.Engine = own
	return o, nil
}

// Resolved returns opts (nil for the defaults) as engine name runs with
// them, what Open hands the backend: every default filled in, the shared
// options' (WithDefaults) and the backend's own (its Resolver), so that
// Engine points to the backend's complete options; a nil Engine stands for
// their defaults. Resolved options resolve to themselves, so that a parent
// process can hand its own to a child. Errors wrap ErrInvalidOptions, or
// ErrUnknownEngine.
func Resolved(name string, opts *Options) (Options, error) {
	_, o, err := resolve(name, opts)
	return o, err
}

// resolve is Resolved, which also returns the driver registered as name.
func resolve(name string, opts *Options) (Driver, Options, error) {
	d, o, err := lookup(name, opts)
	if err != nil {
		return d, Options{}, err
	}
	if o.Engine, err = d.resolveOwn(name, o); err != nil {
		return d, Options{}, err
	}
	return d, o, nil
}

// resolveOwn returns the backend's own options in o.Engine complete,
// given o's shared options resolved: a pointer to what their Resolver
// returns. Nil, or a nil pointer, stands for the defaults; a type other
// than NewOptions' is refused.
func (d Driver) resolveOwn(name string, o Options) (any, error) {
	if d.NewOptions == nil {
		return o.Engine, nil
	}
	own := d.NewOptions()
	if o.Engine != nil {
		if reflect.TypeOf(o.Engine) != reflect.TypeOf(own) {
			return nil, fmt.Errorf("%w: %s wants %T in Options.Engine, got %T", ErrInvalidOptions, name, own, o.Engine)
		}
		if !reflect.ValueOf(o.Engine).IsNil() {
			own = o.Engine
		}
	}
	r, ok := own.(Resolver)
	if !ok {
		return own, nil
	}
	v, err := r.Resolve(o)
	if err != nil {
		return nil, err
	}
	// A pointer, as OptionsFor reads it, and a new one, so that the
	// caller's options are left as they were.
	p := reflect.New(reflect.TypeOf(v))
	p.Elem().Set(reflect.ValueOf(v))
	return p.Interface(), nil
}

// apply writes ov into doc, a decoded config file, after checking that
// its engine and key exist; its value takes the type of the key's field.
func apply(doc map[string]any, ov Override) error {
	table, fields := doc, reflect.TypeFor[Options]()
	if ov.Engine != "" {
		names := Names()
		if !slices.Contains(names, ov.Engine) {
			return fmt.Errorf("%w: %s: no engine %q; choose from %s, or leave the engine out for a shared key (%s)", ErrConfig, ov, ov.Engine, strings.Join(names, ", "), strings.Join(sharedKeys(), ", "))
		}
		d, _ := Lookup(ov.Engine)
		if d.NewOptions == nil {
			return fmt.Errorf("%w: %s: engine %s has no options of its own", ErrConfig, ov, ov.Engine)
		}
		fields = reflect.TypeOf(d.NewOptions()).Elem()
		t, ok := doc[ov.Engine].(map[string]any)
		if !ok {
			t = map[string]any{}
			doc[ov.Engine] = t
		}
		table = t
	}
	f, ok := fieldOf(fields, ov.Key)
	if !ok {
		where := "the shared keys are"
		if ov.Engine != "" {
			where = ov.Engine + "'s keys are"
		}
		return fmt.Errorf("%w: %s: no key %q; %s %s", ErrConfig, ov, ov.Key, where, strings.Join(keysOf(fields), ", "))
	}
	var v struct{ V any }
	if _, err := toml.Decode("V = "+ov.Value, &v); err != nil {
		v.V = ov.Value // bare text: a string
	}
	if s, ok := v.V.(string); ok && f.Type.Kind() == reflect.Slice {
		v.V = strings.Split(s, ",")
	}
	table[ov.Key] = v.V
	return nil
}

// fieldOf is the field of struct type t whose toml key is key.
func fieldOf(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		if f := t.Field(i); tomlKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// keysOf lists the toml keys of struct type t.
func keysOf(t reflect.Type) []string {
	var keys []string
	for i := range t.NumField() {
		if k := tomlKey(t.Field(i)); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return keys
}

// tomlKey is f's TOML key, its tag without options such as omitzero.
func tomlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return k
}
