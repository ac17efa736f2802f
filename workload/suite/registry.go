package suite

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]*Suite{}
	aliases    = map[string]string{}
)

// Register makes w the workload name. It panics if the name, or one of
// its aliases, is taken, like database/sql.Register.
func Register[S, R any](name string, w Workload[S, R]) {
	registryMu.Lock()
	defer registryMu.Unlock()
	info := w.Info()
	for _, n := range append([]string{name}, info.Aliases...) {
		_, named := registry[n]
		_, aliased := aliases[n]
		if named || aliased {
			panic("suite: Register called twice for " + n)
		}
	}
	registry[name] = &Suite{name: name, info: info, w: adapter[S, R]{w}}
	for _, a := range info.Aliases {
		aliases[a] = name
	}
}

// Names returns the registered workload names, sorted, without aliases.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return slices.Sorted(maps.Keys(registry))
}

// Lookup returns the workload registered under name or one of its
// aliases; ErrUnknown for none.
func Lookup(name string) (*Suite, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if n, ok := aliases[name]; ok {
		name = n
	}
	s, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("%w %q", ErrUnknown, name)
	}
	return s, nil
}

// Suite is a registered workload, for a program that handles its
// settings and results without knowing their types.
type Suite struct {
	name string
	info Info
	w    erased
}

// Name is the name it is registered under.
func (s *Suite) Name() string { return s.name }

// Info describes it.
func (s *Suite) Info() Info { return s.info }

// OnJVM says whether the JVM worker runs it too (JVMRunner).
func (s *Suite) OnJVM() bool { return s.w.onJVM() }

// Decode is the workload with the settings b holds, as a job carries them
// (Config.MarshalJSON). A field the settings lack is an error.
func (s *Suite) Decode(b []byte) (*Config, error) {
	settings, err := s.w.decode(b)
	if err != nil {
		return nil, fmt.Errorf("the %s settings: %w", s.name, err)
	}
	return &Config{Suite: s, settings: settings}, nil
}

// DecodeResult decodes the result a child sent.
func (s *Suite) DecodeResult(b []byte) (*Result, error) {
	if len(b) == 0 {
		return nil, errors.New("no result")
	}
	v, err := s.w.decodeResult(b)
	if err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	return &Result{s: s, v: v}, nil
}

// Report renders results, every one of this workload.
func (s *Suite) Report(runID string, env harness.Environment, results []*Result) report.Renderer {
	vs := make([]any, len(results))
	for i, r := range results {
		vs[i] = r.v
	}
	return s.w.report(runID, env, vs)
}

// File is a JSON report of one workload, as report.Renderer writes it:
// the run, its environment and its results.
type File struct {
	Suite   *Suite
	RunID   string
	Env     harness.Environment
	Results []*Result
}

// ReadReport reads b, a JSON report (report.Renderer's JSON, {"results":
// [...]}) of any workload, which its results' key tells (Info.ResultKey).
// An error wrapping ErrUnknownReport names the keys it looked for.
func ReadReport(b []byte) (*File, error) {
	var rep struct {
		RunID   string              `json:"run_id"`
		Env     harness.Environment `json:"environment"`
		Results []json.RawMessage   `json:"results"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, err
	}
	s, err := identify(rep.Results)
	if err != nil {
		return nil, err
	}
	f := &File{Suite: s, RunID: rep.RunID, Env: rep.Env}
	for _, raw := range rep.Results {
		v, err := s.w.decodeResult(raw)
		if err != nil {
			return nil, err
		}
		f.Results = append(f.Results, &Result{s: s, v: v})
	}
	return f, nil
}

// identify returns the workload whose ResultKey one of results holds.
func identify(results []json.RawMessage) (*Suite, error) {
	var keys []string
	for _, name := range Names() {
		s, _ := Lookup(name)
		key := s.w.resultKey()
		keys = append(keys, key)
		for _, raw := range results {
			var fields map[string]json.RawMessage
			if json.Unmarshal(raw, &fields) == nil {
				if _, ok := fields[key]; ok {
					return s, nil
				}
			}
		}
	}
	return nil, fmt.Errorf("%w: it holds no results with %s", ErrUnknownReport, strings.Join(keys, ", "))
}

// ReadSamples reads b, a JSON report of a workload that compare reads
// (Comparer): the workload and the samples of its figures. An error
// wrapping ErrUnknownReport or ErrNotCompared says why not.
func ReadSamples(b []byte) (*Suite, []report.Samples, error) {
	var rep struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, nil, err
	}
	s, err := identify(rep.Results)
	if err != nil {
		return nil, nil, err
	}
	samples, err := s.w.samples(b)
	return s, samples, err
}

// Compared names the workloads whose reports compare reads (Comparer).
func Compared() []string {
	var names []string
	for _, name := range Names() {
		if s, _ := Lookup(name); s.w.compareMetrics() != nil {
			names = append(names, name)
		}
	}
	return names
}

// CompareMetrics are the figures compare shows of the workload unless
// told which (Comparer); none if compare does not read it.
func (s *Suite) CompareMetrics() []report.CompareMetric { return s.w.compareMetrics() }

// Config is a workload with its settings: complete and checked
// (Flags.Configure), or as a job carries them (Suite.Decode).
type Config struct {
	*Suite
	settings any // *S
}

// Settings are the workload's settings, of its own type S.
func (c *Config) Settings() any { return c.w.value(c.settings) }

// MarshalJSON is the settings as a job carries them.
func (c *Config) MarshalJSON() ([]byte, error) { return json.Marshal(c.settings) }

// Start is the result of an engine that has not run (Workload.Start).
func (c *Config) Start(options map[string]any) *Result {
	return c.result(c.w.start(c.settings, options))
}

// Run runs the workload on e (Workload.Run); the result is nil if it
// has none.
func (c *Config) Run(e *Engine) (*Result, error) {
	v, err := c.w.run(c.settings, e)
	return c.result(v), err
}

// Role runs role of the workload on e (Roles); ErrNoRole if it has no
// such role.
func (c *Config) Role(role string, e *Engine) error {
	return c.w.role(role, c.settings, e)
}

// Prepare readies the machine before anything is created in path
// (Preparer).
func (c *Config) Prepare(path string) error { return c.w.prepare(c.settings, path) }

// EngineOptions are o, the resolved options of engine name, with what
// the workload needs of the engine set (EngineOptioner); o itself for a
// workload that needs nothing.
func (c *Config) EngineOptions(name string, o engine.Options) (engine.Options, error) {
	return c.w.engineOptions(c.settings, name, o)
}

// JVM says why the JVM worker cannot run the workload as configured;
// nil if it can (JVMRunner). Call it only if OnJVM.
func (c *Config) JVM(common Common) error { return c.w.jvm(c.settings, common) }

func (c *Config) result(v any) *Result {
	if v == nil {
		return nil
	}
	return &Result{s: c.Suite, v: v}
}

// Result is one engine's result, of its workload's type underneath.
type Result struct {
	s *Suite
	v any // *R
}

// Value is the result, a *R of its workload's R.
func (r *Result) Value() any { return r.v }

// MarshalJSON is the result as a child sends it.
func (r *Result) MarshalJSON() ([]byte, error) { return json.Marshal(r.v) }

// Fields point into the result (Workload.Fields).
func (r *Result) Fields() Fields { return r.s.w.fields(r.v) }

// Failure says why the result failed, "" if it passed.
func (r *Result) Failure() string { return r.s.w.failure(r.v) }

// erased is a Workload whose settings and results are values of type
// any: *S and *R.
type erased interface {
	defaults() any
	flags(fs *flag.FlagSet, s any)
	configure(s any, c *Common, given Given) error
	decode(b []byte) (any, error)
	value(s any) any
	start(s any, options map[string]any) any
	run(s any, e *Engine) (any, error)
	role(role string, s any, e *Engine) error
	prepare(s any, path string) error
	engineOptions(s any, name string, o engine.Options) (engine.Options, error)
	onJVM() bool
	jvm(s any, c Common) error
	fields(res any) Fields
	failure(res any) string
	decodeResult(b []byte) (any, error)
	report(runID string, env harness.Environment, results []any) report.Renderer
	resultKey() string
	samples(b []byte) ([]report.Samples, error)
	compareMetrics() []report.CompareMetric
}

// adapter erases the types of w.
type adapter[S, R any] struct{ w Workload[S, R] }

func (a adapter[S, R]) defaults() any {
	s := a.w.Defaults()
	return &s
}

func (a adapter[S, R]) flags(fs *flag.FlagSet, s any) { a.w.Flags(fs, s.(*S)) }

func (a adapter[S, R]) configure(s any, c *Common, given Given) error {
	return a.w.Configure(s.(*S), c, given)
}

func (a adapter[S, R]) decode(b []byte) (any, error) {
	s := new(S)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(s); err != nil {
		return nil, err
	}
	return s, nil
}

func (a adapter[S, R]) value(s any) any { return *s.(*S) }

func (a adapter[S, R]) start(s any, options map[string]any) any {
	if res := a.w.Start(*s.(*S), options); res != nil {
		return res
	}
	return nil
}

func (a adapter[S, R]) run(s any, e *Engine) (any, error) {
	res, err := a.w.Run(*s.(*S), e)
	if res == nil {
		return nil, err // not a nil *R in a non-nil any
	}
	return res, err
}

func (a adapter[S, R]) role(role string, s any, e *Engine) error {
	r, ok := a.w.(Roles[S])
	if !ok {
		return fmt.Errorf("%w %q", ErrNoRole, role)
	}
	return r.Role(role, *s.(*S), e)
}

func (a adapter[S, R]) prepare(s any, path string) error {
	if p, ok := a.w.(Preparer[S]); ok {
		return p.Prepare(*s.(*S), path)
	}
	return nil
}

func (a adapter[S, R]) engineOptions(s any, name string, o engine.Options) (engine.Options, error) {
	if e, ok := a.w.(EngineOptioner[S]); ok {
		return e.EngineOptions(*s.(*S), name, o)
	}
	return o, nil
}

func (a adapter[S, R]) onJVM() bool {
	_, ok := a.w.(JVMRunner[S])
	return ok
}

func (a adapter[S, R]) jvm(s any, c Common) error {
	if j, ok := a.w.(JVMRunner[S]); ok {
		return j.JVM(*s.(*S), c)
	}
	return nil
}

func (a adapter[S, R]) fields(res any) Fields { return a.w.Fields(res.(*R)) }

func (a adapter[S, R]) failure(res any) string { return a.w.Failure(res.(*R)) }

func (a adapter[S, R]) decodeResult(b []byte) (any, error) {
	res := new(R)
	if err := json.Unmarshal(b, res); err != nil {
		return nil, err
	}
	return res, nil
}

func (a adapter[S, R]) report(runID string, env harness.Environment, results []any) report.Renderer {
	rs := make([]*R, len(results))
	for i, r := range results {
		rs[i] = r.(*R)
	}
	return a.w.Report(runID, env, rs)
}

func (a adapter[S, R]) resultKey() string { return a.w.Info().ResultKey }

func (a adapter[S, R]) samples(b []byte) ([]report.Samples, error) {
	c, ok := a.w.(Comparer[R])
	if !ok {
		return nil, fmt.Errorf("%w: it holds results of %s, which compare does not read", ErrNotCompared, a.w.Info().About)
	}
	var rep struct {
		Results []*R `json:"results"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return nil, err
	}
	return c.Samples(rep.Results), nil
}

func (a adapter[S, R]) compareMetrics() []report.CompareMetric {
	if c, ok := a.w.(Comparer[R]); ok {
		return c.CompareMetrics()
	}
	return nil
}
