package points

import (
	"encoding/csv"
	"errors"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TimeColumn is the column of an imported CSV that holds each row's
// time: RFC 3339, or nanoseconds since 1970.
const TimeColumn = "time"

// tagSuffix marks a CSV column as a tag, as influx write's CSV headers
// do: "station|tag".
const tagSuffix = "|tag"

// csvReader reads a CSV with a header: a TimeColumn, tag columns (named
// with tagSuffix) and fields, every other column, whose cells are
// numbers, an empty cell being no point. Each field of a row is a point
// of the series "measurement,tag=value... field", the measurement the
// file's name without its extension, tags sorted by name.
type csvReader struct {
	in     *csv.Reader
	time   int
	tags   []int // tag columns, sorted by name
	fields []int
	names  [][]byte // each column's name, escaped
	// measurement is the file's name, escaped; head, the front of key,
	// "measurement,tag=value... " of the current row.
	measurement []byte
	head        []byte
	key         []byte
	rec         []string
	at          int // the next of fields to read in rec
	line        int
	ts          int64
	started     bool
}

func newCSVReader(name string) func(io.Reader) pointReader {
	measurement := appendEscaped(nil, []byte(strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))), measurementSpecials)
	return func(r io.Reader) pointReader {
		cr := csv.NewReader(r)
		cr.ReuseRecord = true
		return &csvReader{in: cr, measurement: measurement, time: -1}
	}
}

// header reads the header row.
func (r *csvReader) header() error {
	head, err := r.in.Read()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return r.csvError(err)
	}
	for i, name := range head {
		switch {
		case name == TimeColumn:
			r.time = i
		case strings.HasSuffix(name, tagSuffix):
			r.tags = append(r.tags, i)
			name = strings.TrimSuffix(name, tagSuffix)
		default:
			r.fields = append(r.fields, i)
		}
		r.names = append(r.names, appendEscaped(nil, []byte(name), keySpecials))
	}
	if r.time < 0 {
		return atLine(1, "no %s column: name the column of each row's time %s (RFC 3339, or nanoseconds since 1970)", TimeColumn, TimeColumn)
	}
	if len(r.fields) == 0 {
		return atLine(1, "no field column: every column but %s and those named NAME%s holds numbers", TimeColumn, tagSuffix)
	}
	slices.SortFunc(r.tags, func(a, b int) int { return strings.Compare(string(r.names[a]), string(r.names[b])) })
	return nil
}

func (r *csvReader) next(p *filePoint) error {
	if !r.started {
		r.started = true
		if err := r.header(); err != nil {
			return err
		}
		r.at = len(r.fields)
	}
	for {
		for r.at < len(r.fields) {
			c := r.fields[r.at]
			r.at++
			cell := r.rec[c]
			if cell == "" {
				continue // no measurement in this row
			}
			x, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				return atLine(r.line, "column %s: %q is not a number", r.names[c], cell)
			}
			r.key = append(r.key[:len(r.head)], r.names[c]...)
			p.series, p.ts, p.float, p.bits, p.line = r.key, r.ts, true, math.Float64bits(x), r.line
			return nil
		}
		if err := r.row(); err != nil {
			return err
		}
	}
}

// row reads the next row: its time and the head of its series keys.
func (r *csvReader) row() error {
	rec, err := r.in.Read()
	if err != nil {
		if err == io.EOF {
			return err
		}
		return r.csvError(err)
	}
	r.rec, r.at = rec, 0
	r.line, _ = r.in.FieldPos(0)
	if r.ts, err = parseTime(rec[r.time]); err != nil {
		return atLine(r.line, "column %s: %v", TimeColumn, err)
	}
	key := r.key[:0]
	key = append(key, r.measurement...)
	for _, c := range r.tags {
		key = append(key, ',')
		key = append(key, r.names[c]...)
		key = append(key, '=')
		key = appendEscaped(key, []byte(rec[c]), keySpecials)
	}
	key = append(key, ' ')
	// The row's head is the front of key, which each field completes.
	r.key, r.head = key, key[:len(key):len(key)]
	return nil
}

// csvError is err of the csv package at its line.
func (r *csvReader) csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return atLine(pe.Line, "%v", pe.Err)
	}
	return err
}

// parseTime reads a CSV time: nanoseconds since 1970, or RFC 3339.
func parseTime(s string) (int64, error) {
	if ns, err := strconv.ParseInt(s, 10, 64); err == nil {
		return ns, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, errors.New(strconv.Quote(s) + " is neither RFC 3339 nor nanoseconds since 1970")
	}
	return t.UnixNano(), nil
}
