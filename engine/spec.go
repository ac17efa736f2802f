package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Spec is an engine as a run chose it: its registered name and its
// options, resolved (Resolve), the backend's own typed by its driver. It
// is how a benchmark's parent hands an engine to the child process that
// opens it: its JSON, {"name": ..., "options": {shared keys..., NAME:
// {own keys...}}}, decodes to an identical Spec, so that the options
// change form only at that one hop and are resolved once.
type Spec struct {
	Name    string
	Options Options
}

// Effective is s's options as engine.Effective spells them, with their
// TOML keys: what results record. It spells them as they are, resolving
// nothing again: a Spec's options are resolved already.
func (s Spec) Effective() (map[string]any, error) { return spell(s.Name, s.Options) }

// specJSON is a Spec's JSON: the shared options, the own ones under the
// engine's name, as in a config file.
type specJSON struct {
	Name    string                     `json:"name"`
	Options map[string]json.RawMessage `json:"options"`
}

func (s Spec) MarshalJSON() ([]byte, error) {
	shared := s.Options
	shared.Engine = nil
	b, err := json.Marshal(shared)
	if err != nil {
		return nil, err
	}
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(b, &opts); err != nil {
		return nil, err
	}
	if s.Options.Engine != nil {
		if opts[s.Name], err = json.Marshal(s.Options.Engine); err != nil {
			return nil, err
		}
	}
	return json.Marshal(specJSON{Name: s.Name, Options: opts})
}

// UnmarshalJSON decodes what MarshalJSON wrote, exactly: the backend's
// own options into the type its driver makes (Driver.NewOptions), every
// number into its field's own type. An unknown engine or key is an
// error wrapping ErrUnknownEngine or ErrConfig. It neither resolves nor
// checks the options, which Open does.
func (s *Spec) UnmarshalJSON(b []byte) error {
	var j specJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return fmt.Errorf("%w: engine spec: %v", ErrConfig, err)
	}
	d, err := Lookup(j.Name)
	if err != nil {
		return err
	}
	var o Options
	if own, ok := j.Options[j.Name]; ok {
		if d.NewOptions == nil {
			return fmt.Errorf("%w: %s options: %s has no options of its own", ErrConfig, j.Name, j.Name)
		}
		// Unmarshal decodes into the value a non-nil pointer in an
		// interface points to.
		o.Engine = d.NewOptions()
		if err := strictJSON(own, o.Engine); err != nil {
			return fmt.Errorf("%w: %s options: %v", ErrConfig, j.Name, err)
		}
		delete(j.Options, j.Name)
	}
	shared, err := json.Marshal(j.Options)
	if err != nil {
		return err
	}
	own := o.Engine
	if err := strictJSON(shared, &o); err != nil {
		return fmt.Errorf("%w: %s options: %v", ErrConfig, j.Name, err)
	}
	o.Engine = own
	*s = Spec{Name: j.Name, Options: o}
	return nil
}

// strictJSON decodes b into v, refusing a key v has no field for.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
