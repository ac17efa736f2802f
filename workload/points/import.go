package points

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/cespare/xxhash/v2"
	"github.com/tsbench/storage/engine/tskey"
)

// An imported file (-values FILE, Values.Kind Imported) is the dataset
// itself: each of its points, in file order, is point i of the run,
// sequence i+1, at the file's own timestamp, in the series its series
// key (measurement, tags, field) maps to, numbered in order of first
// appearance. It is streamed, never held: a run keeps a map of series
// keys and a few sums per series, so its memory does not grow with the
// file's points. The parent checks the whole file before anything is
// created (Values.Survey); the child reads it again to write it and to
// learn what each series holds (Values.Open).

// filePoint is one point of an imported file.
type filePoint struct {
	// series is the point's series key, valid until the next point.
	series []byte
	ts     int64 // nanoseconds since 1970
	// float says bits are a float64's, else an int64's.
	float bool
	bits  uint64
	line  int
}

// pointReader reads a file's points in file order: next fills p, or
// returns io.EOF at the end, or an error, a *lineError for the file's
// mistakes.
type pointReader interface {
	next(p *filePoint) error
}

// formats are the readers of the file formats other than line protocol,
// by extension.
var formats = map[string]func(name string) func(io.Reader) pointReader{
	".csv": newCSVReader,
}

// reader reads in, the file at path, in the format its extension names.
func reader(path string, in io.Reader) pointReader {
	if format, ok := formats[strings.ToLower(filepath.Ext(path))]; ok {
		return format(path)(in)
	}
	return newLineReader(in)
}

// errEnough stops a scan early without an error.
var errEnough = errors.New("enough points")

// scan streams the points of the file at path to fn, in file order,
// until the end or fn's errEnough. Its errors wrap ErrBadValues and name
// the file and line.
func scan(path string, fn func(p *filePoint) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: %w: give random, real, or a file of line protocol or CSV", ErrBadValues, err)
	}
	defer f.Close()
	r := reader(path, f)
	var p filePoint
	n := 0
	err = r.next(&p)
	for ; err == nil; err = r.next(&p) {
		n++
		if err = fn(&p); err != nil {
			break
		}
	}
	switch {
	case errors.Is(err, errEnough):
		return nil
	case err == io.EOF && n == 0:
		return fmt.Errorf("%w: %s: no points: give line protocol, or a CSV with a header and rows (a .csv file)", ErrBadValues, path)
	case err == io.EOF:
		return nil
	}
	return fileError(path, err)
}

// fileError is err, met reading the file at path, naming the file and
// its line.
func fileError(path string, err error) error {
	var le *lineError
	if errors.As(err, &le) {
		return fmt.Errorf("%w: %s:%d: %s", ErrBadValues, path, le.line, le.msg)
	}
	return fmt.Errorf("%w: %s: %w", ErrBadValues, path, err)
}

// Survey is what the parent's check of an imported file found: its
// sizes, which replace -points and -series, and where the delete step
// cuts.
type Survey struct {
	Points int64 `json:"points"`
	Series int64 `json:"series"`
	// Span is the time from the file's first timestamp to its last, plus
	// 1 ns: how much later the second write step writes the file's
	// first points again.
	Span uint64 `json:"span_ns"`
	// Cutoff is the timestamp of point Points/2: the delete step deletes
	// the points of every series before it, and those at it written
	// before that point (by sequence), which are the file's first
	// Points/2 when it is in time order.
	Cutoff uint64 `json:"cutoff_ns"`
	// Deleted is how many points the delete step deletes.
	Deleted int64 `json:"deleted"`
}

// lastSeen is what the check of a file remembers of a series.
type lastSeen struct {
	ts    int64
	line  int
	float bool
}

// Survey checks every line of an imported file in one streamed pass, then
// finds the delete step's cut-off in two more: every point must be a
// number at a time since 1970, each series' points in increasing time
// with one type (float or integer). Its error wraps ErrBadValues and
// names the file and line, or the fix.
func (v Values) Survey() (Survey, error) {
	var s Survey
	ids := map[string]int{}
	var last []lastSeen
	lo, hi := int64(math.MaxInt64), int64(0)
	err := scan(v.File, func(p *filePoint) error {
		if p.ts < 0 {
			return atLine(p.line, "time %d is before 1970", p.ts)
		}
		id, ok := ids[string(p.series)]
		if !ok {
			ids[string(p.series)] = len(last)
			last = append(last, lastSeen{p.ts, p.line, p.float})
		} else {
			l := &last[id]
			switch {
			case l.float != p.float:
				return atLine(p.line, "series %s is %s here but %s on line %d: give a field one type", p.series, kindName(p.float), kindName(l.float), l.line)
			case p.ts == l.ts:
				return atLine(p.line, "series %s has time %d on line %d already: give a series one point per time", p.series, p.ts, l.line)
			case p.ts < l.ts:
				return atLine(p.line, "series %s goes back in time from line %d: give each series' points in increasing time (sort the file by time)", p.series, l.line)
			}
			l.ts, l.line = p.ts, p.line
		}
		lo, hi = min(lo, p.ts), max(hi, p.ts)
		s.Points++
		return nil
	})
	if err != nil {
		return Survey{}, err
	}
	s.Series, s.Span = int64(len(last)), uint64(hi-lo)+1
	if s.Points > MaxPoints/2 {
		return Survey{}, fmt.Errorf("%w: %s: %d points, above the maximum %d", ErrBadValues, v.File, s.Points, int64(MaxPoints/2))
	}
	h, i := s.Points/2, int64(0)
	err = scan(v.File, func(p *filePoint) error {
		if i == h {
			s.Cutoff = uint64(p.ts)
			return errEnough
		}
		i++
		return nil
	})
	if err == nil {
		i = 0
		err = scan(v.File, func(p *filePoint) error {
			if !s.kept(uint64(p.ts), uint64(i)+1) {
				s.Deleted++
			}
			i++
			return nil
		})
	}
	return s, err
}

// kept reports whether the delete step keeps the point at ts with
// sequence number seq.
func (s Survey) kept(ts, seq uint64) bool {
	return ts > s.Cutoff || ts == s.Cutoff && seq > uint64(s.Points/2)
}

func kindName(float bool) string {
	if float {
		return "a float"
	}
	return "an integer"
}

// File is an imported file ready for a run (Values.Open): its series and
// what a read of each must return.
type File struct {
	Survey
	path   string
	float  bool // the Float64 encoding
	ids    map[string]int64
	series []fileSeries
	// bytes and deletedBytes are the key and value bytes of the points
	// and of those the delete step deletes.
	bytes, deletedBytes int64
}

// fileSeries is what a run knows of a series of an imported file: sums of
// its points, all and deleted, against which a read is checked.
type fileSeries struct {
	name                  string
	float                 bool
	count, deleted        int64
	digest, deletedDigest uint64
}

// Open reads an imported file, which Survey checked, for a run: its
// series and their sums, in one streamed pass. A file that changed since
// the survey fails with ErrBadValues.
func (v Values) Open() (*File, error) {
	if v.Import == nil {
		return nil, fmt.Errorf("%w: %s: not surveyed", ErrBadValues, v.File)
	}
	f := &File{Survey: *v.Import, path: v.File, float: v.Encoding == Float64, ids: map[string]int64{}}
	var i int64
	var buf []byte
	err := scan(v.File, func(p *filePoint) error {
		id, ok := f.ids[string(p.series)]
		if !ok {
			id = int64(len(f.series))
			f.ids[string(p.series)] = id
			f.series = append(f.series, fileSeries{name: string(p.series), float: p.float})
		}
		seq := uint64(i) + 1
		buf = tskey.AppendKey(buf[:0], uint64(id), uint64(p.ts), seq)
		buf = f.appendValue(buf, p.float, p.bits)
		d, s := Digest(buf[:tskey.KeySize], buf[tskey.KeySize:]), &f.series[id]
		s.count++
		s.digest += d
		f.bytes += int64(len(buf))
		if !f.kept(uint64(p.ts), seq) {
			s.deleted++
			s.deletedDigest += d
			f.deletedBytes += int64(len(buf))
		}
		i++
		return nil
	})
	switch {
	case err != nil:
		return nil, err
	case i != f.Points || int64(len(f.series)) != f.Series:
		return nil, fmt.Errorf("%w: %s changed since it was checked: %d points over %d series, not %d over %d", ErrBadValues, v.File, i, len(f.series), f.Points, f.Series)
	}
	return f, nil
}

// appendValue appends a point's value in the file's encoding: protobuf
// (int64_value or double_value) or float64 (the float's or int's 8 bytes).
func (f *File) appendValue(dst []byte, float bool, bits uint64) []byte {
	switch {
	case f.float:
	case float:
		dst = append(dst, doubleTag)
	default:
		return AppendValue(dst, int64(bits))
	}
	return binary.LittleEndian.AppendUint64(dst, bits)
}

// Digest is what a point adds to its series' sum: a hash of its key and
// encoded value. The sum of a series' points does not depend on their
// order; a wrong, missing or extra point changes it.
func Digest(key, val []byte) uint64 {
	var d xxhash.Digest
	d.Reset()
	d.Write(key)
	d.Write(val)
	return d.Sum64()
}

// Expect is what a read of series s returns in full: the count of its
// points and the sum of their digests, all of them or with afterDelete
// those the delete step keeps.
func (f *File) Expect(s int64, afterDelete bool) (n int64, sum uint64) {
	fs := &f.series[s]
	if afterDelete {
		return fs.count - fs.deleted, fs.digest - fs.deletedDigest
	}
	return fs.count, fs.digest
}

// Name is series s's key: "measurement,tag=value field".
func (f *File) Name(s int64) string { return f.series[s].name }

// Kept reports whether the delete step keeps the point at ts with
// sequence number seq.
func (f *File) Kept(ts, seq uint64) bool { return f.kept(ts, seq) }

// DeleteBound appends to dst the key before which the delete step
// deletes series s's points.
func (f *File) DeleteBound(dst []byte, s int64) []byte {
	return tskey.AppendKey(dst, uint64(s), f.Cutoff, uint64(f.Points/2)+1)
}

// LogicalBytes are the key and value bytes of the points, all of them or
// with deleted those the delete step deletes.
func (f *File) LogicalBytes(deleted bool) int64 {
	if deleted {
		return f.deletedBytes
	}
	return f.bytes
}

// CheckStored says what is wrong with val, a value read back from series
// s, "" if it is one of the encoding's values of the series' type: a
// wrong number shows in the series' sum.
func (f *File) CheckStored(s int64, val []byte) string {
	switch float := f.series[s].float; {
	case f.float && len(val) == 8:
		return ""
	case !f.float && float && len(val) == 9 && val[0] == doubleTag:
		return ""
	case !f.float && !float:
		if _, err := ParseValue(val); err == nil {
			return ""
		}
	}
	return "value " + hex.EncodeToString(val) + " is not a " + f.encoding(s)
}

func (f *File) encoding(s int64) string {
	kind := "int64"
	if f.series[s].float {
		kind = "double"
	}
	if f.float {
		return "float64 (8 bytes)"
	}
	return "protobuf " + kind
}

// Stream writes a file's points in order: point i is the file's point i
// mod Points, Span later in time for each time the file was written
// before, with sequence number i+1.
type Stream struct {
	f    *File
	in   *os.File
	r    pointReader
	next int64 // the index of the next point
	// opened is the index of the point the file was opened for.
	opened int64
	point  filePoint
}

// Stream opens the file for writing points from index from on.
func (f *File) Stream(from int64) (*Stream, error) {
	s := &Stream{f: f, next: from - from%f.Points}
	if err := s.open(); err != nil {
		return nil, err
	}
	for ; s.next < from; s.next++ {
		if err := s.read(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// open opens the file at its start, for point s.next.
func (s *Stream) open() error {
	s.Close()
	in, err := os.Open(s.f.path)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrBadValues, err)
	}
	s.in, s.r, s.opened = in, reader(s.f.path, in), s.next
	return nil
}

// read reads the point at s.next, reopening the file after its last.
func (s *Stream) read() error {
	if s.next%s.f.Points == 0 && s.next != s.opened {
		if err := s.open(); err != nil {
			return err
		}
	}
	switch err := s.r.next(&s.point); {
	case err == io.EOF:
		return fmt.Errorf("%w: %s changed since it was checked: it ends before point %d", ErrBadValues, s.f.path, s.next%s.f.Points)
	case err != nil:
		return fileError(s.f.path, err)
	}
	return nil
}

// Fill reads the next n points into b, in place of its points.
func (s *Stream) Fill(b *Batch, n int64) error {
	if need := int(n) * tskey.KeySize; cap(b.keys) < need {
		b.keys = make([]byte, need)
		b.vals = make([]byte, 0, int(n)*9)
		b.ends = make([]int, n)
	}
	b.keys = b.keys[:int(n)*tskey.KeySize]
	b.vals = b.vals[:0]
	b.ends = b.ends[:n]
	for j := range b.ends {
		if err := s.read(); err != nil {
			return err
		}
		p := &s.point
		id, ok := s.f.ids[string(p.series)]
		if !ok {
			return fmt.Errorf("%w: %s:%d: series %s changed since the file was checked", ErrBadValues, s.f.path, p.line, p.series)
		}
		ts := uint64(p.ts) + uint64(s.next/s.f.Points)*s.f.Span
		tskey.PutKey(b.keys[j*tskey.KeySize:], uint64(id), ts, uint64(s.next)+1)
		b.vals = s.f.appendValue(b.vals, p.float, p.bits)
		b.ends[j] = len(b.vals)
		s.next++
	}
	b.logical = int64(len(b.keys) + len(b.vals))
	return nil
}

// Close closes the file.
func (s *Stream) Close() error {
	if s.in == nil {
		return nil
	}
	err := s.in.Close()
	s.in = nil
	return err
}
