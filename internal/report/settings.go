package report

import (
	"cmp"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// SettingsTable is the options each engine ran with, as results record
// them (engine.Effective: the shared keys, and the engine's own in a table
// under its name), one column per engine: a reader sees what produced the
// figures without opening the JSON. Options are the engines' in the
// column order of heads; a nil one is an engine that recorded none.
func SettingsTable(heads []string, options []map[string]any) Table {
	t := Table{Title: "Settings (each engine's options, every default filled in; - where an engine has no such option)",
		Head: append([]string{"Option"}, heads...), Labels: 1}
	flat := make([]map[string]string, len(options))
	keys := map[string]bool{}
	for i, o := range options {
		flat[i] = map[string]string{}
		flatOptions("", o, flat[i])
		for k := range flat[i] {
			keys[k] = true
		}
	}
	// Shared keys first, then each engine's own, by name.
	own := func(k string) int {
		if strings.Contains(k, ".") {
			return 1
		}
		return 0
	}
	names := slices.SortedFunc(maps.Keys(keys), func(a, b string) int {
		return cmp.Or(cmp.Compare(own(a), own(b)), strings.Compare(a, b))
	})
	for _, k := range names {
		row := Row{Labels: []string{k}}
		for _, f := range flat {
			v, ok := f[k]
			if !ok {
				row.Cells = append(row.Cells, None)
				continue
			}
			row.Cells = append(row.Cells, Cell{Text: v})
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// flatOptions writes o's values as text under "prefix.key".
func flatOptions(prefix string, o map[string]any, out map[string]string) {
	for k, v := range o {
		if sub, ok := v.(map[string]any); ok {
			flatOptions(prefix+k+".", sub, out)
			continue
		}
		b, _ := json.Marshal(v)
		s := string(b)
		if str, ok := v.(string); ok {
			s = str
		}
		out[prefix+k] = s
	}
}
