package suite_test

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"slices"
	"strings"
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

// fake is a workload whose own flag is -NAME-own and that refuses the
// command's -command.
type fake struct{ name string }

func (f fake) Info() suite.Info {
	return suite.Info{About: "the " + f.name + " workload", Add: "add -workload " + f.name}
}

func (fake) Defaults() fakeSettings { return fakeSettings{Shared: 1} }

func (f fake) Flags(fs *flag.FlagSet, s *fakeSettings) {
	fs.IntVar(&s.Shared, "shared", s.Shared, "a flag both fakes take")
	fs.IntVar(&s.Own, f.name+"-own", 0, "a flag of "+f.name)
}

func (f fake) Refuse(flag string) error {
	return suite.Refuse(flag, []string{"command"}, f.name, "-shared")
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

// parse defines every workload's flags on a new flag set and parses args.
func parse(t *testing.T, args ...string) (*suite.Flags, []string) {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.String("command", "", "a flag of the command")
	flags := suite.DefineFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	var set []string
	fs.Visit(func(f *flag.Flag) { set = append(set, f.Name) })
	return flags, set
}

// TestFlags checks that a flag two workloads define sets both, and that
// a workload refuses another's flag, or one it lists, naming the fix.
func TestFlags(t *testing.T) {
	flags, set := parse(t, "-shared", "7", "-fake-b-own", "3")
	c := suite.Common{Points: 5}
	b, err := flags.Configure("fake-b", &c, set)
	if err != nil {
		t.Fatal(err)
	}
	if s := b.Settings().(fakeSettings); s != (fakeSettings{Shared: 7, Own: 3}) || c.Points != 5 {
		t.Errorf("fake-b: %+v, points %d", s, c.Points)
	}
	if a, err := flags.Configure("fake-a", &c, []string{"shared"}); err != nil || a.Settings().(fakeSettings).Shared != 7 {
		t.Errorf("fake-a: %v, %v; want -shared 7 too", a, err)
	}
	if _, err := flags.Configure("fake-a", &c, set); !errors.Is(err, suite.ErrInvalid) || !strings.HasSuffix(err.Error(), ": -fake-b-own is a setting of the fake-b workload: add -workload fake-b") {
		t.Errorf("fake-b's flag in fake-a: %v", err)
	}

	flags, set = parse(t, "-command", "x")
	if _, err := flags.Configure("fake-a", &c, set); !errors.Is(err, suite.ErrInvalid) || !strings.HasSuffix(err.Error(), ": -command is not a setting of -workload fake-a, which takes -shared: drop -command") {
		t.Errorf("a flag fake-a refuses: %v", err)
	}
	if _, err := flags.Configure("fake-a", &c, nil); err != nil || c.Points != 0 {
		t.Errorf("no flags: %v, points %d; want the workload's default of none", err, c.Points)
	}
	if _, err := flags.Configure("nothing", &c, nil); !errors.Is(err, suite.ErrUnknown) {
		t.Errorf("unknown workload: %v", err)
	}
}

// TestDecode checks that settings go to a child and results come back as
// the workload's types, and that a field the settings lack is refused.
func TestDecode(t *testing.T) {
	flags, set := parse(t, "-shared", "9")
	cfg, err := flags.Configure("fake-a", &suite.Common{}, set)
	if err != nil {
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

// TestUnquoteUsage: a flag two workloads define is named after its type,
// as it would be alone.
func TestUnquoteUsage(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	suite.DefineFlags(fs)
	if name, usage := suite.UnquoteUsage(fs.Lookup("shared")); name != "int" || usage != "a flag both fakes take" {
		t.Errorf("-shared %s: %s", name, usage)
	}
}
