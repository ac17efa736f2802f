package engine_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// errNoSuchRelease is testrelease's answer for a release it has not.
var errNoSuchRelease = errors.New("9.9 is no release: choose 1.0")

func init() {
	// An engine with releases of its library (Driver.Release): 1.0 is
	// one, and 2.0 is the one the program links.
	engine.Register("testrelease", engine.Driver{
		Open:    func(string, engine.Options) (engine.Backend, error) { return memory.New(), nil },
		Version: func() string { return "2.0" },
		Release: func(v string) (engine.Release, error) {
			if v != "1.0" {
				return engine.Release{}, errNoSuchRelease
			}
			return engine.Release{Version: v, Dir: "/releases/" + v}, nil
		},
	})
}

func TestParseName(t *testing.T) {
	for _, c := range []struct {
		in      string
		want    engine.Named
		runs    string
		wantErr error
	}{
		{in: "testrelease", want: engine.Named{Engine: "testrelease"}, runs: "2.0"},
		{in: "testrelease@1.0", want: engine.Named{Engine: "testrelease", Release: "1.0"}, runs: "1.0"},
		{in: "testrelease@", wantErr: engine.ErrRelease},                                                      // no version
		{in: "testmem@1.0", wantErr: engine.ErrRelease},                                                       // an engine without releases
		{in: "nosuch@1.0", wantErr: engine.ErrUnknownEngine},                                                  // not registered
		{in: "@1.0", wantErr: engine.ErrUnknownEngine},                                                        // no engine
		{in: "testrelease@1.0@2", want: engine.Named{Engine: "testrelease", Release: "1.0@2"}, runs: "1.0@2"}, // its driver refuses it
	} {
		got, err := engine.ParseName(c.in)
		if !errors.Is(err, c.wantErr) || got != c.want {
			t.Errorf("ParseName(%q) = %+v, %v; want %+v, %v", c.in, got, err, c.want, c.wantErr)
			continue
		}
		if err == nil && (got.String() != c.in || got.Runs() != c.runs) {
			t.Errorf("ParseName(%q): String %q, Runs %q; want %q, %q", c.in, got, got.Runs(), c.in, c.runs)
		}
	}
}

func TestResolveRelease(t *testing.T) {
	r, err := engine.Named{Engine: "testrelease", Release: "1.0"}.Resolve()
	if err != nil || r != (engine.Release{Engine: "testrelease", Version: "1.0", Dir: "/releases/1.0"}) {
		t.Errorf("Resolve(testrelease@1.0) = %+v, %v", r, err)
	}
	if _, err := (engine.Named{Engine: "testrelease", Release: "9.9"}).Resolve(); !errors.Is(err, engine.ErrRelease) || !errors.Is(err, errNoSuchRelease) {
		t.Errorf("Resolve(testrelease@9.9) = %v, want ErrRelease with the driver's reason", err)
	}
	if r, err := (engine.Named{Engine: "testrelease"}).Resolve(); err != nil || r != (engine.Release{}) {
		t.Errorf("Resolve(testrelease) = %+v, %v; want the zero Release: the linked library", r, err)
	}
}

func TestReleaseEnv(t *testing.T) {
	t.Setenv("LD_LIBRARY_PATH", "/opt/lib")
	if got, want := (engine.Release{Dir: "/releases/1.0"}).Env(), []string{"LD_LIBRARY_PATH=/releases/1.0:/opt/lib"}; !slices.Equal(got, want) {
		t.Errorf("Env() = %q, want %q: the release first, then what was there", got, want)
	}
	if got := (engine.Release{}).Env(); got != nil {
		t.Errorf("Env() of the linked library = %q, want none", got)
	}
}
