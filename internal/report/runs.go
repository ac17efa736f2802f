package report

import (
	"fmt"
	"slices"
	"strings"
)

// Groups gathers results by engine, in the order engines first appear:
// an engine run several times (-count) has one result per run.
func Groups[R any](results []*R, engine func(*R) string) [][]*R {
	var out [][]*R
	var names []string
	for _, r := range results {
		if r == nil {
			continue
		}
		i := slices.Index(names, engine(r))
		if i < 0 {
			names = append(names, engine(r))
			out = append(out, nil)
			i = len(out) - 1
		}
		out[i] = append(out[i], r)
	}
	return out
}

// RunsError is why an engine's runs failed, "" if none did: the error of
// its only run, or each failed run's numbered from 1.
func RunsError(errs []string) string {
	if len(errs) == 1 {
		return errs[0]
	}
	var out []string
	for i, e := range errs {
		if e != "" {
			out = append(out, fmt.Sprintf("run %d: %s", i+1, e))
		}
	}
	return strings.Join(out, "; ")
}

// RepeatNote is the introduction's sentence on repeated runs, "" for one.
func RepeatNote(runs int) string {
	if runs < 2 {
		return ""
	}
	return fmt.Sprintf("\nEach engine ran %d times, each time in a fresh directory: a figure is the median of its runs, "+
		"± the larger distance from it to the smallest or largest run.", runs)
}
