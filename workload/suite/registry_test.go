package suite_test

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"
)

// fakeSettings are a fake workload's: -shared, which both fakes define,
// and a flag of its own.
type fakeSettings struct {
	Shared int `json:"shared"`
	Own    int `json:"own"`
}

type fakeResult struct {
	harness.Header
	Error  string `json:"error,omitempty"`
	Shared int    `json:"shared"`
}

// fake is a workload whose own flag is -NAME-own, that also takes the
// shared -points.
type fake struct{ name string }

func (f fake) Info() suite.Info {
	return suite.Info{About: "the " + f.name + " workload", Shared: []string{suite.FlagPoints}}
}

func (fake) Defaults() fakeSettings { return fakeSettings{Shared: 1} }

func (f fake) Flags(fs *flag.FlagSet, s *fakeSettings) {
	fs.IntVar(&s.Shared, "shared", s.Shared, "a flag both fakes take")
	fs.IntVar(&s.Own, f.name+"-own", 0, "a flag of "+f.name)
}

func (fake) Configure(s *fakeSettings, c *suite.Common, given suite.Given) error {
	if !given("shared") {
		c.Points = 0
	}
	if s.Own < 0 {
		return suite.Invalidf("-own %d: give 0 or more", s.Own)
	}
	return nil
}

func (fake) Start(s fakeSettings, options map[string]any) *fakeResult {
	return &fakeResult{Header: harness.Header{Options: options}, Shared: s.Shared}
}

func (fake) Run(s fakeSettings, _ *suite.Engine) (*fakeResult, error) {
	return nil, errors.New("no engine")
}

func (fake) Fields(res *fakeResult) suite.Fields {
	return suite.Fields{Header: &res.Header, Err: &res.Error}
}

func (fake) Failure(res *fakeResult) string { return res.Error }

func (fake) Report(string, harness.Environment, []*fakeResult) report.Renderer { return nil }

func init() {
	suite.Register("fake-a", fake{"fake-a"})
	suite.Register("fake-b", fake{"fake-b"})
}

// parse defines workload name's flags on a new flag set and parses args.
func parse(t *testing.T, name string, args ...string) (*suite.Config, []string) {
	t.Helper()
	w, err := suite.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := w.NewConfig(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	var set []string
	fs.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	return cfg, set
}

// TestFlags checks that a workload's flags set its settings alone, that
// Configure sees which were given, and which workloads take a flag.
func TestFlags(t *testing.T) {
	b, set := parse(t, "fake-b", "-shared", "7", "-fake-b-own", "3")
	c := suite.Common{Points: 5}
	if err := b.Configure(&c, func(n string) bool { return slices.Contains(set, n) }); err != nil {
		t.Fatal(err)
	}
	if s := b.Settings().(fakeSettings); s != (fakeSettings{Shared: 7, Own: 3}) || c.Points != 5 {
		t.Errorf("fake-b: %+v, points %d", s, c.Points)
	}
	a, _ := parse(t, "fake-a")
	if err := a.Configure(&c, func(string) bool { return false }); err != nil || c.Points != 0 || a.Settings().(fakeSettings).Shared != 1 {
		t.Errorf("no flags: %v, points %d, %+v; want the workload's defaults", err, c.Points, a.Settings())
	}
	a, _ = parse(t, "fake-a", "-fake-a-own", "-1")
	if err := a.Configure(&c, func(string) bool { return true }); !errors.Is(err, suite.ErrInvalid) {
		t.Errorf("a bad setting: %v", err)
	}
	names := func(ws []*suite.Suite) (out []string) {
		for _, w := range ws {
			out = append(out, w.Name())
		}
		return out
	}
	if got := names(suite.Taking("fake-b-own")); !slices.Equal(got, []string{"fake-b"}) {
		t.Errorf("-fake-b-own is taken by %v", got)
	}
	if got := names(suite.Taking(suite.FlagPoints)); !slices.Contains(got, "fake-a") || !slices.Contains(got, "fake-b") {
		t.Errorf("-points is taken by %v", got)
	}
	if w, _ := suite.Lookup("fake-a"); w.Takes("interval") || !w.Takes("shared") {
		t.Errorf("fake-a takes -interval %v, -shared %v", w.Takes("interval"), w.Takes("shared"))
	}
}

// TestDecode checks that settings go to a child and results come back as
// the workload's types, and that a field the settings lack is refused.
func TestDecode(t *testing.T) {
	cfg, set := parse(t, "fake-a", "-shared", "9")
	if err := cfg.Configure(&suite.Common{}, func(n string) bool { return slices.Contains(set, n) }); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w, err := suite.Lookup("fake-a")
	if err != nil {
		t.Fatal(err)
	}
	child, err := w.Decode(b)
	if err != nil || child.Settings() != cfg.Settings() {
		t.Fatalf("decoded %s into %v, %v", b, child, err)
	}
	if _, err := w.Decode([]byte(`{"shared": 1, "extra": 2}`)); err == nil {
		t.Error("a field the settings lack was accepted")
	}
	res := child.Start(map[string]any{"sync": "none"})
	res.Fields().Header.Engine = "pebble"
	back, err := w.DecodeResult(must(json.Marshal(res)))
	if err != nil {
		t.Fatal(err)
	}
	if got := back.Value().(*fakeResult); got.Engine != "pebble" || got.Shared != 9 || got.Options["sync"] != "none" || back.Failure() != "" {
		t.Errorf("result came back as %+v", got)
	}
	if r, err := child.Run(nil); r != nil || err == nil {
		t.Errorf("a run without a result: %v, %v", r, err)
	}
	if err := child.Role("writer", nil); !errors.Is(err, suite.ErrNoRole) {
		t.Errorf("a role the workload lacks: %v", err)
	}
	if !slices.Contains(suite.Names(), "fake-a") {
		t.Errorf("names %v", suite.Names())
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
