package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// importFiles writes a file of line protocol and a CSV of a few thousand
// lines each in dir: two hosts' usage (float) and processes (integer),
// and two stations' temperature and wind, a wind cell left empty now and
// then.
func importFiles(t *testing.T, dir string) (lp, csv string) {
	t.Helper()
	var l, c strings.Builder
	c.WriteString("time,station|tag,temp,wind\n")
	for i := range 1500 {
		ts := 1_700_000_000_000_000_000 + int64(i)*10e9
		fmt.Fprintf(&l, "cpu,host=a usage=%d.25,procs=%di %d\ncpu,host=b usage=%d.5 %d\n", i%97, i%13, ts, i%89, ts)
		for _, st := range []string{"EWR", "JFK"} {
			wind := ""
			if i%7 != 0 {
				wind = fmt.Sprint(i % 31)
			}
			at := time.Date(2013, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
			fmt.Fprintf(&c, "%s,%s,%d.5,%s\n", at.Format(time.RFC3339), st, i%40-10, wind)
		}
	}
	lp, csv = filepath.Join(dir, "cpu.lp"), filepath.Join(dir, "weather.csv")
	for p, text := range map[string]string{lp: l.String(), csv: c.String()} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return lp, csv
}

// TestRunImportedValues: -values FILE runs a file of line protocol and a
// CSV end to end, the file's points and series in place of -points and
// -series, every point read back checked; a malformed line is refused
// naming its file and line, with nothing created.
func TestRunImportedValues(t *testing.T) {
	a, _ := pureGoEngines(t)
	dir := t.TempDir()
	lp, csv := importFiles(t, dir)
	runs, empty := filepath.Join(dir, "runs"), filepath.Join(dir, "empty")
	for _, d := range []string{runs, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for file, want := range map[string]struct{ points, series int64 }{lp: {4500, 3}, csv: {5570, 4}} {
		code, stdout, stderr := runChildren(t, "-engine", a, "-path", runs, "-points", "1M", "-values", file, "-format", "json")
		if code != exitOK {
			t.Fatalf("%s: status %d:\n%s", file, code, stderr)
		}
		var rep struct {
			Results []struct {
				Config struct {
					Points int64 `json:"points"`
					Series int64 `json:"series"`
				} `json:"config"`
				Steps []struct {
					Name   string `json:"name"`
					Points int64  `json:"points"`
					Verify *struct {
						Expected, Read, Missing, Unexpected, Wrong int64
					} `json:"verify"`
				} `json:"steps"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		res := rep.Results[0]
		if res.Config.Points != want.points || res.Config.Series != want.series {
			t.Errorf("%s: %d points over %d series, want the file's %d over %d", file, res.Config.Points, res.Config.Series, want.points, want.series)
		}
		for _, st := range res.Steps {
			if v := st.Verify; v != nil && (v.Read != st.Points || v.Expected != st.Points || v.Missing+v.Unexpected+v.Wrong != 0) {
				t.Errorf("%s: %s: %+v", file, st.Name, v)
			}
		}
		if len(res.Steps) != 6 || res.Steps[1].Verify == nil || res.Steps[1].Verify.Read != want.points {
			t.Errorf("%s: steps %+v: not every point read back and checked", file, res.Steps)
		}
	}
	code, stdout, _ := runChildren(t, "-engine", a, "-path", runs, "-values", lp)
	if first := strings.SplitN(stdout, "\n", 2)[0]; code != exitOK || !strings.HasPrefix(first, "4.5k points over 3 series (cpu.lp's, in place of -points and -series)") {
		t.Errorf("status %d; the report's first line: %q", code, first)
	}

	// Mixed and steady run a file as well, every read checked (their
	// packages' tests check what they read).
	for args, ok := range map[*[]string]*regexp.Regexp{
		{"mixed", "-values", lp, "-duration", "1s"}:  regexp.MustCompile(`(?m)^final check +ok, `),
		{"steady", "-values", lp, "-duration", "2s"}: regexp.MustCompile(`(?m)^wrong answers +0\n(.*\n)*Status +ok$`),
	} {
		if code, stdout, stderr := runChildren(t, append(*args, "-engine", a, "-path", runs)...); code != exitOK || !ok.MatchString(stdout) {
			t.Errorf("%v: status %d, want %d and %s:\n%s%s", *args, code, exitOK, ok, stdout, stderr)
		}
	}

	text, err := os.ReadFile(lp)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	lines[1233] = "cpu,host=b usage=1i 1700000000000000000" // line 1234: host b's usage was a float
	bad := filepath.Join(dir, "bad.lp")
	if err := os.WriteFile(bad, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"-values", bad}, {"mixed", "-values", lp, "-writers", "4", "-duration", "1s"}, {"steady", "-values", lp, "-retention-method", "bucket"}} {
		code, _, stderr := runChildren(t, append(args, "-engine", a, "-path", empty)...)
		if code != exitBadInput || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: status %d, want %d and one line:\n%s", args, code, exitBadInput, stderr)
		}
		if args[0] == "-values" && !strings.Contains(stderr, bad+":1234: series cpu,host=b usage is an integer here but a float on line") {
			t.Errorf("the malformed line is not named: %s", stderr)
		}
		if made, err := os.ReadDir(empty); err != nil || len(made) > 0 {
			t.Errorf("%v: created in -path: %v (%v)", args, made, err)
		}
	}
}
