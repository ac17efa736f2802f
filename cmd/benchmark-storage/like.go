package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/harness"
)

// runFacts is what a JSON report says about how its figures came about:
// what compare and merge check before they set two reports side by side.
type runFacts struct {
	env     harness.Environment
	config  map[string]any            // the workload's parameters
	options map[string]map[string]any // each engine's effective options
}

// recordingKeys are workload parameters that change how a run is
// recorded, not what it measures.
var recordingKeys = []string{"interval_ns"}

// readFacts reads the facts of a JSON report.
func readFacts(b []byte) (runFacts, error) {
	var r struct {
		Env     harness.Environment `json:"environment"`
		Results []struct {
			Engine  string         `json:"engine"`
			Config  map[string]any `json:"config"`
			Options map[string]any `json:"options"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return runFacts{}, err
	}
	f := runFacts{env: r.Env, options: map[string]map[string]any{}}
	for _, res := range r.Results {
		if f.config == nil && len(res.Config) > 0 {
			f.config = maps.Clone(res.Config)
		}
		if res.Options != nil {
			f.options[res.Engine] = res.Options
		}
	}
	for _, k := range recordingKeys {
		delete(f.config, k)
	}
	return f, nil
}

// measuredDifference names the workload parameters in which a and b
// differ, "" if none: runs that differ there measured different things.
func measuredDifference(a, b runFacts) string {
	return strings.Join(diffMaps("", a.config, b.config), "; ")
}

// sharedDifference names the shared engine settings (cache_size, sync,
// ...: a result's options outside an engine's own table) in which the
// engines of a and b differ, "" if none.
func sharedDifference(a, b runFacts) string {
	shared := func(f runFacts) map[string]any {
		for _, o := range f.options {
			m := map[string]any{}
			for k, v := range o {
				if _, own := v.(map[string]any); !own {
					m[k] = v
				}
			}
			return m // the engines of one run share them
		}
		return nil
	}
	x, y := shared(a), shared(b)
	if x == nil || y == nil {
		return ""
	}
	return strings.Join(diffMaps("", x, y), "; ")
}

// settingDifferences are the differences between a and b in how they
// ran, not what they measured: machine, tool, durability, memory limit,
// each common engine's version, build and options.
func settingDifferences(a, b runFacts) []string {
	var out []string
	add := func(what, x, y string) {
		if x != y {
			out = append(out, fmt.Sprintf("%s: %s → %s", what, report.OrDash(x), report.OrDash(y)))
		}
	}
	add("machine", machineOf(a.env), machineOf(b.env))
	add("tool", a.env.Tool.String(), b.env.Tool.String())
	add("sync", string(a.env.Sync), string(b.env.Sync))
	add("memory limit", fmt.Sprint(a.env.MemoryLimit), fmt.Sprint(b.env.MemoryLimit))
	add("memory sampling", a.env.MemorySampling(), b.env.MemorySampling())
	add("Go runtime", a.env.GoRuntimeSettings(), b.env.GoRuntimeSettings())
	for _, name := range slices.Sorted(maps.Keys(a.options)) {
		o, ok := b.options[name]
		if !ok {
			continue
		}
		add(name+" version", a.env.EngineVersions[name], b.env.EngineVersions[name])
		add(name+" build", a.env.EngineBuilds[name], b.env.EngineBuilds[name])
		out = append(out, diffMaps(name+" ", a.options[name], o)...)
	}
	return out
}

// machineOf names the machine a report ran on, as compare and merge
// tell machines apart.
func machineOf(e harness.Environment) string {
	return fmt.Sprintf("%s, %d cores, %d bytes of memory, kernel %s, %s", e.CPUModel, e.Cores, e.MemoryBytes, e.Kernel, e.Filesystem)
}

// diffMaps lists the keys (nested tables as table.key) whose values
// differ between a and b, each as "prefix key: a → b".
func diffMaps(prefix string, a, b map[string]any) []string {
	at, bt := report.OptionTexts(a), report.OptionTexts(b)
	var out []string
	for _, k := range slices.Sorted(maps.Keys(union(at, bt))) {
		x, xok := at[k]
		y, yok := bt[k]
		if x != y || xok != yok {
			out = append(out, fmt.Sprintf("%s%s: %s → %s", prefix, k, report.OrDash(x), report.OrDash(y)))
		}
	}
	return out
}

// union is a map with the keys of both a and b.
func union(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}
