package report

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"strconv"
	"time"
)

// CSV writes a report in long form, one row per figure, under the header
// engine,<part>,metric,value,unit, so that any tool can pivot it. A part
// is what a benchmark measures one at a time (a step, a benchmark), or
// "environment" or "run". A figure is a metric, its value and its unit
// ("" if it has none); values are exact: whole numbers (Int), durations
// in ns (Nanos), other numbers in their shortest form (Float).
type CSV struct {
	w *csv.Writer
}

// NewCSV writes the header of a CSV report whose second column is named
// part.
func NewCSV(w io.Writer, part string) *CSV {
	c := &CSV{w: csv.NewWriter(w)}
	c.Put("engine", part, [][3]string{{"metric", "value", "unit"}})
	return c
}

// Put writes figures as rows of engine's part.
func (c *CSV) Put(engine, part string, figures [][3]string) {
	for _, f := range figures {
		_ = c.w.Write([]string{engine, part, f[0], f[1], f[2]}) // errors surface in Flush
	}
}

// PutRun writes an engine's "run" rows: its library version, its error,
// the options it was opened with (as JSON), then config.
func (c *CSV) PutRun(e Engine, version string, options any, config [][3]string) error {
	opts, err := json.Marshal(options)
	if err != nil {
		return err
	}
	c.Put(e.Name, "run", [][3]string{{"version", version, ""}, {"error", e.Error, ""}, {"options", string(opts), "json"}})
	c.Put(e.Name, "run", config)
	return nil
}

// Flush writes out the buffered rows and reports the first write error.
func (c *CSV) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// Int is n as a CSV value.
func Int(n int64) string { return strconv.FormatInt(n, 10) }

// Nanos is d as a CSV value, in nanoseconds.
func Nanos(d time.Duration) string { return Int(d.Nanoseconds()) }

// Float is v as a CSV value, in its shortest exact form.
func Float(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
