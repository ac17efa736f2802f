package main

import (
	"github.com/tsbench/storage/internal/report"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tsbench/storage/workload/harness"
	"github.com/tsbench/storage/workload/suite"

	// Every workload is linked in, each registering itself.
	_ "github.com/tsbench/storage/workload/all"
)

// pickWorkload sets s.workload: the workload -workload names (name), or
// the one a flag of its own picks (suite.Info.Selects: -benchmarks), with
// its settings, complete and checked (suite.Flags.Configure); set are
// the flags the command line set. It applies what the workload says of
// the command's settings: -format gobench only for a report that has it,
// and the workload's durability unless -sync is given.
func pickWorkload(s *settings, name string, flags *suite.Flags, set []string) error {
	given := func(n string) bool { return slices.Contains(set, n) }
	for _, n := range suite.Names() {
		w, _ := suite.Lookup(n)
		sel := w.Info().Selects
		if sel == "" || !given(sel) {
			continue
		}
		if named, err := suite.Lookup(name); given("workload") && (err != nil || named != w) {
			return inputErrorf("-%s runs %s, not -workload %s: drop one of them", sel, w.Info().About, name)
		}
		name = n
	}
	w, err := suite.Lookup(name)
	if err != nil {
		return inputErrorf("-workload %q: use one of %s", name, strings.Join(suite.Names(), ", "))
	}
	if s.common.Dataset != "" && !w.Info().Datasets {
		var keep []string
		for _, k := range workloadsWhere(func(w *suite.Suite) bool { return w.Info().Datasets }) {
			keep = append(keep, k.Name())
		}
		return inputErrorf("-dataset keeps the points of -workload %s, not of %s: drop -dataset", strings.Join(keep, " or "), w.Name())
	}
	cfg, err := flags.Configure(w.Name(), &s.common, set)
	if err != nil {
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
	if sync := w.Info().Sync; sync != "" && !given("sync") {
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
