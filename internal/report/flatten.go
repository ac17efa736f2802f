package report

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Figure is one field of a result as the CSV output, the JSON summary
// and compare name it: by its path in the JSON output ("time_ns",
// "io.write_bytes", "options.cache_size"), so that each is defined once,
// by the documentation of the Go field behind it. It holds a number or a
// text.
type Figure struct {
	Metric string
	// Unit is read from the name: ns, bytes, points/s, us, %, bool
	// (1 or 0), or "" for a plain number or a text.
	Unit   string
	Value  float64
	Text   string
	IsText bool
}

// Flatten lists the fields of v, a struct, a pointer to one or a map, as
// figures named by their JSON paths after prefix: nested structs and maps
// give "outer.inner", a nil pointer, an empty text or a zero field the
// JSON omits (omitempty) gives nothing, a
// bool is 1 or 0, a time is an RFC 3339 text. Lists are left out: each
// item of one is a part of its own.
func Flatten(prefix string, v any) []Figure {
	var out []Figure
	flatten(prefix, reflect.ValueOf(v), &out)
	return out
}

var (
	durationType = reflect.TypeFor[time.Duration]()
	timeType     = reflect.TypeFor[time.Time]()
)

func flatten(name string, v reflect.Value, out *[]Figure) {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	join := func(field string) string {
		if name == "" {
			return field
		}
		return name + "." + field
	}
	switch {
	case v.Type() == timeType:
		if t := v.Interface().(time.Time); !t.IsZero() {
			*out = append(*out, Figure{Metric: name, Text: t.UTC().Format(time.RFC3339Nano), IsText: true})
		}
		return
	case v.Type() == durationType:
		*out = append(*out, Figure{Metric: name, Unit: unitOf(name), Value: float64(v.Int())})
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Type().Field(i)
			tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || tag == "-" {
				continue
			}
			if strings.Contains(","+opts+",", ",omitempty,") && v.Field(i).IsZero() {
				continue // absent from the JSON: a figure not recorded, not a zero
			}
			if f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct {
				flatten(name, v.Field(i), out) // its fields are the outer struct's, as encoding/json has them
				continue
			}
			if tag == "" {
				tag = f.Name
			}
			flatten(join(tag), v.Field(i), out)
		}
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			flatten(join(k.String()), v.MapIndex(k), out)
		}
	case reflect.Bool:
		n := 0.0
		if v.Bool() {
			n = 1
		}
		*out = append(*out, Figure{Metric: name, Unit: "bool", Value: n})
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		*out = append(*out, Figure{Metric: name, Unit: unitOf(name), Value: float64(v.Int())})
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		*out = append(*out, Figure{Metric: name, Unit: unitOf(name), Value: float64(v.Uint())})
	case reflect.Float32, reflect.Float64:
		*out = append(*out, Figure{Metric: name, Unit: unitOf(name), Value: v.Float()})
	case reflect.String:
		if s := v.String(); s != "" {
			*out = append(*out, Figure{Metric: name, Text: s, IsText: true})
		}
	}
}

// unitOf reads a figure's unit from the last part of its name, which
// the JSON field names end with: time_ns, peak_rss_bytes,
// points_per_sec, us_per_point, overhead_pct.
func unitOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch {
	case strings.HasSuffix(name, "_ns"):
		return "ns"
	case strings.HasSuffix(name, "_bytes"):
		return "bytes"
	case name == "mb_per_sec":
		return "MB/s"
	case strings.HasSuffix(name, "_per_sec"):
		return strings.TrimSuffix(name, "_per_sec") + "/s"
	case strings.HasPrefix(name, "us_per_"):
		return "us"
	case strings.HasSuffix(name, "_pct"):
		return "%"
	}
	return ""
}

// TextFigures turns metric, value, unit triples (as Environment.Metrics
// gives them) into figures: a triple without a unit is a text.
func TextFigures(triples [][3]string) []Figure {
	out := make([]Figure, 0, len(triples))
	for _, t := range triples {
		v, err := strconv.ParseFloat(t[1], 64)
		if t[2] == "" || err != nil {
			out = append(out, Figure{Metric: t[0], Text: t[1], IsText: true})
			continue
		}
		out = append(out, Figure{Metric: t[0], Unit: t[2], Value: v})
	}
	return out
}

// FigureStats is one figure of a part summarized over an engine's runs.
type FigureStats struct {
	Metric string `json:"metric"`
	Unit   string `json:"unit,omitempty"`
	Stats
}

// PartStats is every figure of one part (a step, a benchmark) over an
// engine's runs.
type PartStats struct {
	Name    string        `json:"name"`
	Figures []FigureStats `json:"figures"`
}

// SummarizeRuns summarizes the numeric figures of one part in each run,
// in the order they first appear; a figure missing from a run (a latency
// of a step that failed) is summarized over the runs that have it.
func SummarizeRuns(name string, runs [][]Figure) PartStats {
	p := PartStats{Name: name, Figures: []FigureStats{}}
	for _, s := range SamplesOf("", name, "", runs) {
		p.Figures = append(p.Figures, FigureStats{Metric: s.Metric, Unit: s.Unit, Stats: Summarize(s.Values)})
	}
	return p
}
