package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
)

// runCmd runs the command in-process and returns its exit status and output.
func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// testEngines are two engines built into the test binary.
func testEngines(t *testing.T) (string, string) {
	t.Helper()
	names := engine.Names()
	if len(names) < 2 {
		t.Skipf("need two engines, have %v", names)
	}
	return names[0], names[1]
}

func TestParseFlagsDefaults(t *testing.T) {
	s, err := parseFlags(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(s.engines, engine.Names()) {
		t.Errorf("engines = %v, want all %v", s.engines, engine.Names())
	}
	if s.points != 200_000 || s.series != 1_000 || s.batch != 1000 || s.seed != 1 {
		t.Errorf("points, series, batch, seed = %d, %d, %d, %d", s.points, s.series, s.batch, s.seed)
	}
	if s.path != os.TempDir() || s.format != "table" || s.sync != "" || s.config != "" || s.keep || s.settle || s.child.result != "" {
		t.Errorf("unexpected defaults %+v", s)
	}
}

func TestParseFlags(t *testing.T) {
	a, b := testEngines(t)
	dir := t.TempDir()
	s, err := parseFlags([]string{
		"-engine", b + " , " + a, "-points", "100M", "-series", "500k", "-batch", "2k",
		"-path", dir, "-sync", "batch", "-seed", "42", "-format", "csv",
		"-out", filepath.Join(dir, "r.JSON"), "-keep", "-settle",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := settings{
		engines: []string{b, a}, points: 100_000_000, series: 500_000, batch: 2000,
		path: dir, sync: engine.SyncBatch, seed: 42, format: "csv",
		out: filepath.Join(dir, "r.JSON"), outFormat: "json", keep: true, settle: true,
	}
	if !slices.Equal(s.engines, want.engines) {
		t.Errorf("engines = %v, want %v", s.engines, want.engines)
	}
	s.engines, want.engines = nil, nil
	s.child = childFlags{}
	if !equalSettings(*s, want) {
		t.Errorf("got  %+v\nwant %+v", *s, want)
	}

	// -out without a known extension follows -format.
	s, err = parseFlags([]string{"-engine", a, "-path", dir, "-format", "markdown", "-out", filepath.Join(dir, "r.dat")})
	if err != nil || s.outFormat != "markdown" {
		t.Errorf("outFormat = %q, %v; want markdown", s.outFormat, err)
	}
}

func equalSettings(a, b settings) bool {
	return a.points == b.points && a.series == b.series && a.batch == b.batch && a.path == b.path &&
		a.config == b.config && a.sync == b.sync && a.seed == b.seed && a.format == b.format &&
		a.out == b.out && a.outFormat == b.outFormat && a.keep == b.keep && a.settle == b.settle
}

func TestEngineOptionsSyncOverridesConfig(t *testing.T) {
	a, _ := testEngines(t)
	cfg := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(cfg, []byte("sync = \"batch\"\ncache_size = 1048576\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		flag string
		want engine.SyncMode
	}{{"", engine.SyncBatch}, {"none", engine.SyncNone}, {"batch", engine.SyncBatch}} {
		s := &settings{config: cfg, sync: engine.SyncMode(tc.flag)}
		o, err := engineOptions(s, a)
		if err != nil || o.Sync != tc.want || o.CacheSize != 1<<20 {
			t.Errorf("-sync %q: options %+v, %v; want sync %s, cache 1 MiB", tc.flag, o, err, tc.want)
		}
	}
	o, err := engineOptions(&settings{}, a)
	if err != nil || o.Sync != engine.SyncNone || o.CacheSize != engine.DefaultCacheSize {
		t.Errorf("no config: %+v, %v; want defaults", o, err)
	}
}

func TestHelp(t *testing.T) {
	code, stdout, stderr := runCmd(t, "-h")
	if code != exitOK || stdout != "" {
		t.Errorf("-h: status %d, stdout %q", code, stdout)
	}
	for _, want := range []string{"-engine", "-points", "-series", "-batch", "-path", "-config", "-sync", "-seed", "-format", "-out", "-keep", "-settle"} {
		if !strings.Contains(stderr, "\n  "+want+" ") && !strings.Contains(stderr, "\n  "+want+"\n") {
			t.Errorf("usage lacks %s:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, childFlagPrefix) {
		t.Errorf("usage shows hidden flags:\n%s", stderr)
	}
}

// TestBadInput checks that every mistake gets exit status 2 and one line
// naming it, and that nothing is created or deleted.
func TestBadInput(t *testing.T) {
	a, b := testEngines(t)
	parent := t.TempDir()
	precious := filepath.Join(parent, "precious")
	if err := os.WriteFile(precious, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	// An old run directory of someone else's must survive too.
	old := filepath.Join(parent, "benchmark-storage-old")
	if err := os.MkdirAll(filepath.Join(old, a), 0o755); err != nil {
		t.Fatal(err)
	}
	aside := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(aside, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	malformed := write("malformed.toml", "cache_size = \n[")
	unknownKey := write("unknown.toml", "cache_sise = 10\n")
	unknownTable := write("table.toml", "["+a+"]\nno_such_option = 1\n")
	badValue := write("value.toml", "sync = \"always\"\n")

	for _, tc := range []struct {
		name string
		args []string
		want string // in the message
	}{
		{"unknown engine", []string{"-engine", "nosuchdb"}, `unknown engine "nosuchdb"`},
		{"unknown engine in list", []string{"-engine", a + ",nosuchdb"}, `unknown engine "nosuchdb"`},
		{"empty engine name", []string{"-engine", a + ",," + b}, "empty name"},
		{"engine twice", []string{"-engine", a + "," + a}, "listed twice"},
		{"points 0", []string{"-points", "0"}, "-points"},
		{"points negative", []string{"-points", "-5"}, "-points"},
		{"points abc", []string{"-points", "abc"}, "-points"},
		{"points fraction", []string{"-points", "1.5"}, "not a whole number"},
		{"points overflow", []string{"-points", "99999999999G"}, "too large"},
		{"series 0", []string{"-series", "0"}, "-series"},
		{"batch 0", []string{"-batch", "0"}, "-batch"},
		{"series more than points", []string{"-points", "1k", "-series", "2k"}, "lower -series or raise -points"},
		{"bad format", []string{"-format", "xml"}, `-format "xml"`},
		{"bad sync", []string{"-sync", "always"}, "-sync"},
		{"bad seed", []string{"-seed", "-1"}, "-seed"},
		{"unknown flag", []string{"-pionts", "5"}, "-pionts"},
		{"argument", []string{a}, "unexpected argument"},
		{"path missing", []string{"-path", filepath.Join(parent, "nope")}, "does not exist"},
		{"path is a file", []string{"-path", precious}, "is a file"},
		{"path unwritable", []string{"-path", "/proc/self"}, "cannot create the run directory"},
		{"out is a directory", []string{"-out", aside}, "is a directory"},
		{"out in missing directory", []string{"-out", filepath.Join(parent, "nope", "r.json")}, "-out"},
		{"config missing", []string{"-config", filepath.Join(aside, "none.toml")}, "none.toml"},
		{"config malformed", []string{"-config", malformed}, "malformed.toml"},
		{"config unknown key", []string{"-config", unknownKey}, "cache_sise"},
		{"config unknown engine key", []string{"-engine", a, "-config", unknownTable}, "no_such_option"},
		{"config bad value", []string{"-config", badValue}, "always"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := tc.args
			if !slices.Contains(args, "-path") {
				args = append([]string{"-path", parent}, args...)
			}
			if !slices.Contains(args, "-engine") {
				args = append([]string{"-engine", a}, args...)
			}
			if !slices.Contains(args, "-points") {
				args = append([]string{"-points", "2k", "-series", "20"}, args...)
			}
			code, stdout, stderr := runCmd(t, args...)
			if code != exitBadInput {
				t.Errorf("status %d, want %d; stderr:\n%s", code, exitBadInput, stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") || !strings.HasPrefix(stderr, "benchmark-storage: ") {
				t.Errorf("want one line on stderr, got %q", stderr)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("message %q does not mention %q", stderr, tc.want)
			}
			if strings.Contains(stderr, "panic") || strings.Contains(stderr, "goroutine") {
				t.Errorf("stack trace: %s", stderr)
			}
			checkUntouched(t, parent, "benchmark-storage-old", "precious")
			checkUntouched(t, old, a)
		})
	}
	if b, err := os.ReadFile(precious); err != nil || string(b) != "keep me" {
		t.Errorf("precious = %q, %v", b, err)
	}
}

// checkUntouched fails unless dir holds exactly the named entries.
func checkUntouched(t *testing.T, dir string, names ...string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	slices.Sort(names)
	if !slices.Equal(got, names) {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}
