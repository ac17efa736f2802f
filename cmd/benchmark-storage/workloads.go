package main

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"

	// Every workload is linked in, each registering itself.
	_ "github.com/tsbench/storage/workload/all"
)

// workloadOf is the workload args pick, read before they are parsed, so
// that the flag set has its flags alone: the one -workload names, or one
// a flag of its own picks (suite.Info.Selects: -benchmarks), else the
// default.
func workloadOf(args []string) (*suite.Suite, error) {
	name, named := defaultWorkload, false
	for i := 0; i < len(args); i++ {
		flagName, value, hasValue := cutFlag(args[i])
		switch {
		case args[i] == "--":
			i = len(args)
		case flagName != "workload":
		case hasValue:
			name, named = value, true
		case i+1 < len(args):
			name, named = args[i+1], true
			i++
		}
	}
	w, err := suite.Lookup(name)
	if err != nil {
		return nil, inputErrorf("-workload %q: use one of %s", name, strings.Join(suite.Names(), ", "))
	}
	for _, n := range suite.Names() {
		o, _ := suite.Lookup(n)
		sel := o.Info().Selects
		if sel == "" || !slices.ContainsFunc(args, func(a string) bool { f, _, _ := cutFlag(a); return f == sel }) {
			continue
		}
		if named && o != w {
			return nil, inputErrorf("-%s runs %s, not -workload %s: drop one of them", sel, o.Info().About, name)
		}
		w = o
	}
	return w, nil
}

// cutFlag is arg's flag name and the value after its "=", if arg is a
// flag ("-name", "--name=value"); "" otherwise.
func cutFlag(arg string) (name, value string, hasValue bool) {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return "", "", false
	}
	return strings.Cut(strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-"), "=")
}

// undefinedFlag matches the flag package's error for a flag the set
// lacks.
var undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -(\S+)$`)

// notItsFlag is the input error for err, a parse error, when it is a flag
// that workload w does not take but another does, naming those; nil for
// any other error.
func notItsFlag(err error, w *suite.Suite) error {
	m := undefinedFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	name := m[1]
	if name == "count" && w.Info().Single {
		return inputErrorf("-count is not a flag of %s, which runs each engine once and repeats within its run: drop -count", w.Info().About)
	}
	var of, cmds []string
	for _, o := range suite.Taking(name) {
		of, cmds = append(of, o.Info().About), append(cmds, "benchmark-storage "+o.Name()+" -"+name+" ...")
	}
	if len(of) == 0 {
		return nil
	}
	return inputErrorf("-%s is not a flag of %s (benchmark-storage %s -h lists its flags) but of %s: %s", name, w.Info().About, w.Name(), strings.Join(of, " and "), strings.Join(cmds, ", or "))
}

// configure completes and checks cfg, the workload's settings, once the
// flags set are parsed (suite.Config.Configure), into s.workload. It
// applies what the workload says of the command's settings: -format
// gobench only for a report that has it, and the workload's durability
// unless -sync is given.
func configure(s *settings, cfg *suite.Config, set []string) error {
	given := func(n string) bool { return slices.Contains(set, n) }
	if err := cfg.Configure(&s.common, given); err != nil {
		return invalidSettings(err)
	}
	if s.format == report.FormatGoBench {
		if _, ok := cfg.Report("", harness.Environment{}, nil).(report.GoBencher); !ok {
			return inputErrorf("-format gobench is for the micro benchmarks: choose table, markdown, csv, json or html")
		}
		// benchstat's inputs are conventionally .txt files.
		if strings.EqualFold(filepath.Ext(s.out), ".txt") {
			s.outFormat = report.FormatGoBench
		}
	}
	if sync := cfg.Info().Sync; sync != "" && !given("sync") {
		s.sync = sync
	}
	s.workload = cfg
	return nil
}

// workloadsWhere are the registered workloads for which keep is true,
// the default first, then by name.
func workloadsWhere(keep func(*suite.Suite) bool) []*suite.Suite {
	var out []*suite.Suite
	names := append([]string{defaultWorkload}, slices.DeleteFunc(suite.Names(), func(n string) bool { return n == defaultWorkload })...)
	for _, n := range names {
		if w, err := suite.Lookup(n); err == nil && keep(w) {
			out = append(out, w)
		}
	}
	return out
}
