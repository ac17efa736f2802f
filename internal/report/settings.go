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
		flat[i] = OptionTexts(o)
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

// OptionTexts is options as results record them (nested tables, as
// engine.Effective gives them) flattened to "table.key" and each value's
// text: a string as it is, anything else as JSON, so that options read
// back from a JSON file (numbers as float64) give the same texts.
func OptionTexts(options map[string]any) map[string]string {
	out := map[string]string{}
	optionTexts("", options, out)
	return out
}

func optionTexts(prefix string, o map[string]any, out map[string]string) {
	for k, v := range o {
		switch v := v.(type) {
		case map[string]any:
			optionTexts(prefix+k+".", v, out)
		case string:
			out[prefix+k] = v
		default:
			b, _ := json.Marshal(v)
			out[prefix+k] = string(b)
		}
	}
}
