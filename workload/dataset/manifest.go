package dataset

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"time"

	"github.com/tsbench/storage/internal/report"
	"github.com/tsbench/storage/workload/points"
)

// format is the manifest's layout version; a dataset of another is not
// reused.
const format = 1

// Manifest is every parameter that determines a dataset's contents, and
// when it was written.
type Manifest struct {
	// Format is the manifest's layout version; Open fills it.
	Format int `json:"format"`
	// Engine is the registered engine name, and Version its library's
	// version (engine.Version): another version may not read the files
	// the same way.
	Engine  string `json:"engine"`
	Version string `json:"engine_version"`
	// Sizes are the written points' parameters.
	Sizes
	// Options are the engine's options, every default filled in
	// (engine.Effective).
	Options map[string]any `json:"options"`
	// Created is when Save finished; not a parameter.
	Created time.Time `json:"created"`
}

// Sizes are the parameters of the points a dataset holds, as the
// workloads' configs name them.
type Sizes struct {
	Points int64  `json:"points"`
	Series int64  `json:"series"`
	Batch  int64  `json:"batch"`
	Seed   uint64 `json:"seed"`
	// Values are the points' values and their encoding.
	Values points.Values `json:"values,omitzero"`
}

// diff lists the parameters in which m and o differ, as "points 1M
// (dataset: 2M)".
func (m Manifest) diff(o Manifest) []string {
	if m.Engine != o.Engine {
		// Every option differs too: the engine says it all.
		return []string{fmt.Sprintf("written by %s, not %s", o.Engine, m.Engine)}
	}
	var out []string
	add := func(name string, want, have any) {
		if !reflect.DeepEqual(want, have) {
			out = append(out, fmt.Sprintf("%s %v (dataset: %v)", name, want, have))
		}
	}
	add("format", m.Format, o.Format)
	add("engine", m.Engine, o.Engine)
	add("engine version", m.Version, o.Version)
	add("points", m.Points, o.Points)
	add("series", m.Series, o.Series)
	add("batch", m.Batch, o.Batch)
	add("seed", m.Seed, o.Seed)
	add("values", m.Values.String(), o.Values.String())
	want, have := report.OptionTexts(m.Options), report.OptionTexts(o.Options)
	for _, k := range slices.Sorted(maps.Keys(union(want, have))) {
		if !slices.Contains(readOptions, k) {
			add("option "+k, orNone(want, k), orNone(have, k))
		}
	}
	return out
}

// readOptions are the shared options that change how a store is read or
// synced, never what its files hold: a dataset serves runs that differ
// in them, such as a sweep of cache sizes over one written dataset.
var readOptions = []string{"cache_size", "max_open_files", "sync"}

func union(a, b map[string]string) map[string]string {
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
}

func orNone(m map[string]string, k string) string {
	if v, ok := m[k]; ok {
		return v
	}
	return "none"
}
