package points

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/influxdata/line-protocol/v2/lineprotocol"
)

// maxLine bounds a line of an imported file: a longer one is refused
// rather than buffered whole.
const maxLine = 1 << 20

// lineReader reads InfluxDB line protocol, timestamps in nanoseconds
// (the protocol's default precision): each field of a line is a point of
// the series "measurement,tag=value... field", tags sorted by key. One
// decoder reads the whole file, allocating nothing per line.
type lineReader struct {
	in  *lineCounter
	dec *lineprotocol.Decoder
	// The current line's points not yet returned: their series keys
	// back to back in keys, each ending at its end.
	keys    []byte
	pending []pendingField
	at      int // the next of pending to return
	ts      int64
	line    int
	// tags are the line's tags, their bytes copied into tagBytes: the
	// decoder's last until its next call.
	tags     []tag
	tagBytes []byte
	head     []byte
}

type pendingField struct {
	end   int
	float bool
	bits  uint64
}

// tag is a tag's key and value, as offsets in lineReader.tagBytes.
type tag struct{ key, value, end int }

func newLineReader(r io.Reader) pointReader {
	in := &lineCounter{in: bufio.NewReaderSize(r, maxLine)}
	return &lineReader{in: in, dec: lineprotocol.NewDecoder(in)}
}

func (r *lineReader) next(p *filePoint) error {
	for r.at == len(r.pending) {
		if err := r.readLine(); err != nil {
			return err
		}
	}
	from := 0
	if r.at > 0 {
		from = r.pending[r.at-1].end
	}
	f := r.pending[r.at]
	r.at++
	p.series, p.ts, p.float, p.bits, p.line = r.keys[from:f.end], r.ts, f.float, f.bits, r.line
	return nil
}

// readLine parses the next line that holds a point into pending.
func (r *lineReader) readLine() error {
	dec := r.dec
	if !dec.Next() {
		if err := dec.Err(); err != nil {
			return err
		}
		return io.EOF
	}
	m, err := dec.Measurement()
	if err != nil {
		return r.decodeError(err)
	}
	r.tags, r.tagBytes = r.tags[:0], r.tagBytes[:0]
	for {
		k, v, err := dec.NextTag()
		if err != nil {
			return r.decodeError(err)
		}
		if k == nil {
			break
		}
		t := tag{key: len(r.tagBytes), value: len(r.tagBytes) + len(k)}
		r.tagBytes = append(append(r.tagBytes, k...), v...)
		t.end = len(r.tagBytes)
		r.tags = append(r.tags, t)
	}
	key := func(t tag) []byte { return r.tagBytes[t.key:t.value] }
	slices.SortFunc(r.tags, func(a, b tag) int { return bytes.Compare(key(a), key(b)) })
	head := appendEscaped(r.head[:0], m, measurementSpecials)
	for _, t := range r.tags {
		head = append(head, ',')
		head = appendEscaped(head, key(t), keySpecials)
		head = append(head, '=')
		head = appendEscaped(head, r.tagBytes[t.value:t.end], keySpecials)
	}
	head = append(head, ' ')
	r.head = head
	r.keys, r.pending, r.at = r.keys[:0], r.pending[:0], 0
	for {
		k, v, err := dec.NextField()
		if err != nil {
			return r.decodeError(err)
		}
		if k == nil {
			break
		}
		f := pendingField{}
		switch v.Kind() {
		case lineprotocol.Float:
			f.float, f.bits = true, math.Float64bits(v.FloatV())
		case lineprotocol.Int:
			f.bits = uint64(v.IntV())
		case lineprotocol.Uint:
			if v.UintV() > math.MaxInt64 {
				return atLine(r.in.line(), "field %s: %d is above the largest integer stored, %d", k, v.UintV(), int64(math.MaxInt64))
			}
			f.bits = v.UintV()
		default:
			return atLine(r.in.line(), "field %s is a %s: only numbers (float, integer) are stored", k, v.Kind())
		}
		r.keys = append(r.keys, head...)
		r.keys = appendEscaped(r.keys, k, keySpecials)
		f.end = len(r.keys)
		r.pending = append(r.pending, f)
	}
	ts, err := dec.TimeBytes()
	if err == nil && ts == nil {
		err = errors.New("no timestamp: give every line one, in nanoseconds since 1970 (line protocol's default precision)")
	}
	if err == nil {
		r.ts, err = parseInt(ts)
	}
	if err != nil {
		return r.decodeError(err)
	}
	r.line = r.in.line()
	return nil
}

// parseInt reads a decimal int64 without allocating.
func parseInt(b []byte) (int64, error) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 19 {
		return 0, fmt.Errorf("invalid timestamp %q", b)
	}
	var n uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("invalid timestamp %q", b)
		}
		n = n*10 + uint64(c-'0')
	}
	if n > math.MaxInt64 {
		return 0, fmt.Errorf("timestamp %s out of range", b)
	}
	if neg {
		return -int64(n), nil
	}
	return int64(n), nil
}

// lineCounter hands the decoder one line of its file at most per Read,
// counting them: the decoder reads a line only when it needs it, so the
// line it is on is the last one handed over. A line longer than
// maxLine is refused rather than buffered whole.
type lineCounter struct {
	in    *bufio.Reader
	rest  []byte // of the line being handed over
	lines int    // newlines handed over
	mid   bool   // the last line handed over has not ended
}

func (c *lineCounter) Read(p []byte) (int, error) {
	if len(c.rest) == 0 {
		line, err := c.in.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			return 0, atLine(c.lines+1, "longer than %d bytes", maxLine)
		case len(line) == 0:
			return 0, err
		}
		c.rest = line
	}
	n := copy(p, c.rest)
	c.rest = c.rest[n:]
	if n > 0 {
		c.mid = p[n-1] != '\n'
		if !c.mid {
			c.lines++
		}
	}
	return n, nil
}

// line is the number of the line the decoder is on.
func (c *lineCounter) line() int {
	if c.mid {
		return c.lines + 1
	}
	return c.lines
}

// decodeError is a decoder's error at its line, or err at the line the
// decoder is on.
func (r *lineReader) decodeError(err error) error {
	var de *lineprotocol.DecodeError
	if errors.As(err, &de) {
		return atLine(int(de.Line), "column %d: %v", de.Column, de.Err)
	}
	return atLine(r.in.line(), "%v", err)
}

// Line protocol's specials, a backslash among them: a measurement
// escapes commas and spaces; tag keys, tag values and field keys equal
// signs too.
const (
	measurementSpecials = `\, `
	keySpecials         = `\,= `
)

// appendEscaped appends s to dst with a backslash before each special
// byte, as line protocol writes it, so that series keys read back the
// same and differ when their parts do.
func appendEscaped(dst, s []byte, specials string) []byte {
	for {
		i := bytes.IndexAny(s, specials)
		if i < 0 {
			return append(dst, s...)
		}
		dst = append(append(dst, s[:i]...), '\\', s[i])
		s = s[i+1:]
	}
}

// lineError is a mistake at a line of an imported file.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

func atLine(line int, format string, args ...any) error {
	return &lineError{line, fmt.Sprintf(format, args...)}
}
