package points

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine/tskey"
)

// writeFile writes text to name in a temporary directory and returns its
// path.
func writeFile(t testing.TB, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestImportRefused: every mistake of an imported file is refused in one
// line naming the file and line (or the fix).
func TestImportRefused(t *testing.T) {
	unreadable := t.TempDir() // a directory opens, but does not read
	for _, c := range []struct{ name, text, want string }{
		{"missing.lp", "", "no such file or directory: give random, real, or a file of line protocol or CSV"},
		{"empty.lp", "", "empty.lp: no points"},
		{"blank.lp", "\n# only a comment\n", "blank.lp: no points"},
		{"header.csv", "time,temp\n", "header.csv: no points"},
		{"notime.csv", "when,temp\n1,2\n", "notime.csv:1: no time column"},
		{"nofield.csv", "time,station|tag\n1,EWR\n", "nofield.csv:1: no field column"},
		{"text.csv", "time,temp\n1,2\n2,warm\n", `text.csv:3: column temp: "warm" is not a number`},
		{"badtime.csv", "time,temp\n1,2\nnoon,3\n", `badtime.csv:3: column time: "noon" is neither RFC 3339`},
		{"ragged.csv", "time,temp\n1,2\n2,3,4\n", "ragged.csv:3: wrong number of fields"},
		{"type.lp", "cpu v=1 10\ncpu v=2i 20\n", "type.lp:2: series cpu v is an integer here but a float on line 1: give a field one type"},
		{"notime.lp", "cpu v=1 10\n\ncpu v=2\ncpu v=3 30\n", "notime.lp:3: no timestamp: give every line one, in nanoseconds"},
		{"dup.lp", "cpu,h=a v=1 10\ncpu,h=b v=1 10\ncpu,h=a v=3 10\n", "dup.lp:3: series cpu,h=a v has time 10 on line 1 already"},
		{"dupfield.lp", "cpu v=1,v=2 10\n", "dupfield.lp:1: series cpu v has time 10 on line 1 already"},
		{"back.lp", "cpu v=1 10\ncpu v=2 5\n", "back.lp:2: series cpu v goes back in time from line 1: give each series' points in increasing time"},
		{"string.lp", "cpu v=1 10\ncpu s=\"up\" 20\n", `string.lp:2: field s is a string: only numbers`},
		{"syntax.lp", "cpu v=1 10\n# note\ncpu v= 20\n", "syntax.lp:3: column 7: "},
		{"trailing.lp", "cpu v=1 10 x\n", "trailing.lp:1: column 12: unexpected text after timestamp"},
		{"before1970.lp", "cpu v=1 -10\n", "before1970.lp:1: time -10 is before 1970"},
		{"uint.lp", "cpu v=18446744073709551615u 10\n", "uint.lp:1: field v: 18446744073709551615 is above the largest integer"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), c.name)
			if c.name != "missing.lp" {
				path = writeFile(t, c.name, c.text)
			}
			_, err := Values{Kind: Imported, File: path}.Survey()
			if !errors.Is(err, ErrBadValues) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%v, want one line with %q", err, c.want)
			}
		})
	}
	if _, err := (Values{Kind: Imported, File: unreadable}).Survey(); !errors.Is(err, ErrBadValues) || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("a directory: %v", err)
	}
	long := writeFile(t, "long.lp", "cpu v=1 10\ncpu,h="+strings.Repeat("x", maxLine)+" v=1 10\n")
	if _, err := (Values{Kind: Imported, File: long}).Survey(); !errors.Is(err, ErrBadValues) || !strings.Contains(err.Error(), "long.lp:2: longer than") {
		t.Errorf("a long line: %v", err)
	}
}

// sampleLines is line protocol of three series over two lines each, the
// second series' tags out of order, and a point of series cpu,h=a idle
// at time 30 after the cut-off point at the same time.
const sampleLines = `# two hosts
cpu,h=a usage=1.5,idle=7i 10
cpu,r=eu,h=b usage=2.5 10
cpu,h=a usage=3.5 30
cpu,h=b,r=eu usage=-4 20
cpu,h=a idle=9i 30
`

// TestImportSurvey: the sizes, span and cut-off of a file, whose points
// are not in time order.
func TestImportSurvey(t *testing.T) {
	s, err := Values{Kind: Imported, File: writeFile(t, "cpu.lp", sampleLines)}.Survey()
	if err != nil {
		t.Fatal(err)
	}
	// Point 3 (of 0..5) is at time 30: the four points before it in time
	// are deleted, not point 5, at it but after it.
	if want := (Survey{Points: 6, Series: 3, Span: 21, Cutoff: 30, Deleted: 4}); s != want {
		t.Errorf("survey %+v, want %+v", s, want)
	}
	// Times in RFC 3339 and in nanoseconds; an empty cell is no point.
	csv := "time,station|tag,temp,wind\n2013-01-01T00:00:00Z,EWR,1.5,\n2013-01-01T01:00:00Z,EWR,2,10\n1357000200000000000,JFK,,3\n"
	s, err = Values{Kind: Imported, File: writeFile(t, "weather.csv", csv)}.Survey()
	if err != nil {
		t.Fatal(err)
	}
	hour := uint64(3600e9)
	// Point 2 is at 01:00: the points before it in time, and point 1 at
	// it, are deleted.
	if want := (Survey{Points: 4, Series: 3, Span: hour + 1, Cutoff: 1356998400e9 + hour, Deleted: 3}); s != want {
		t.Errorf("CSV survey %+v, want %+v", s, want)
	}
}

// TestImportStream: a stream writes the file's points in order, series
// numbered by first appearance, values in the encoding, and again later by
// the span; what it writes is what the series' sums expect.
func TestImportStream(t *testing.T) {
	path := writeFile(t, "cpu.lp", sampleLines)
	for _, enc := range []string{Protobuf, Float64} {
		t.Run(enc, func(t *testing.T) {
			v := Values{Kind: Imported, Encoding: enc, File: path}
			s, err := v.Survey()
			if err != nil {
				t.Fatal(err)
			}
			v.Import = &s
			f, err := v.Open()
			if err != nil {
				t.Fatal(err)
			}
			if f.Name(0) != "cpu,h=a usage" || f.Name(1) != "cpu,h=a idle" || f.Name(2) != "cpu,h=b,r=eu usage" {
				t.Fatalf("series %q %q %q", f.Name(0), f.Name(1), f.Name(2))
			}
			st, err := f.Stream(0)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var b Batch
			if err := st.Fill(&b, 9); err != nil { // the file and half of it again
				t.Fatal(err)
			}
			want := []struct {
				series, ts uint64
				value      any
			}{{0, 10, 1.5}, {1, 10, int64(7)}, {2, 10, 2.5}, {0, 30, 3.5}, {2, 20, -4.0}, {1, 30, int64(9)}, {0, 31, 1.5}, {1, 31, int64(7)}, {2, 31, 2.5}}
			sums := map[uint64]uint64{}
			kept := map[uint64]uint64{}
			var all, deleted int64
			for j, w := range want {
				series, ts, seq, err := tskey.ParseKey(b.Key(j))
				if err != nil || series != w.series || ts != w.ts || seq != uint64(j)+1 {
					t.Fatalf("point %d: key %d %d %d %v, want %d %d %d", j, series, ts, seq, err, w.series, w.ts, j+1)
				}
				val := b.Value(j)
				var got any
				_, isInt := w.value.(int64)
				switch last8 := func() uint64 { return binary.LittleEndian.Uint64(val[len(val)-8:]) }; {
				case enc == Float64 && isInt:
					got = int64(last8())
				case enc == Float64 || !isInt && len(val) == 9 && val[0] == doubleTag:
					got = math.Float64frombits(last8())
				default:
					got, _ = ParseValue(val)
				}
				if got != w.value || f.CheckStored(int64(series), val) != "" {
					t.Errorf("point %d: value %v (%x), want %v", j, got, val, w.value)
				}
				if j < 6 {
					sums[series] += Digest(b.Key(j), val)
					all += int64(tskey.KeySize + len(val))
					if f.Kept(ts, seq) {
						kept[series] += Digest(b.Key(j), val)
					} else {
						deleted += int64(tskey.KeySize + len(val))
					}
				}
			}
			for s := range int64(3) {
				if _, sum := f.Expect(s, false); sum != sums[uint64(s)] {
					t.Errorf("series %d: sum %x, written %x", s, sum, sums[uint64(s)])
				}
				if _, sum := f.Expect(s, true); sum != kept[uint64(s)] {
					t.Errorf("series %d after the delete: sum %x, kept %x", s, sum, kept[uint64(s)])
				}
			}
			if n, _ := f.Expect(0, true); n != 1 {
				t.Errorf("series 0 keeps %d points, want 1 (at time 30)", n)
			}
			if bad := f.CheckStored(0, []byte{1, 2}); bad == "" {
				t.Error("two bytes passed as a value")
			}
			if f.LogicalBytes(false) != all || f.LogicalBytes(true) != deleted {
				t.Errorf("logical bytes %d, deleted %d; written %d, deleted %d", f.LogicalBytes(false), f.LogicalBytes(true), all, deleted)
			}
		})
	}
}

// TestImportStreamFrom: a stream started at a point writes what a
// stream from the start writes there, over the file's end.
func TestImportStreamFrom(t *testing.T) {
	v := Values{Kind: Imported, File: writeFile(t, "cpu.lp", sampleLines)}
	s, err := v.Survey()
	if err != nil {
		t.Fatal(err)
	}
	v.Import = &s
	f, err := v.Open()
	if err != nil {
		t.Fatal(err)
	}
	var all, part Batch
	st, _ := f.Stream(0)
	defer st.Close()
	if err := st.Fill(&all, 12); err != nil {
		t.Fatal(err)
	}
	for from := int64(1); from < 12; from++ {
		sf, err := f.Stream(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := sf.Fill(&part, 12-from); err != nil {
			t.Fatal(err)
		}
		sf.Close()
		for j := range part.Len() {
			if k, v := part.Key(j), part.Value(j); string(k) != string(all.Key(int(from)+j)) || string(v) != string(all.Value(int(from)+j)) {
				t.Fatalf("from %d, point %d: %x=%x, want %x=%x", from, j, k, v, all.Key(int(from)+j), all.Value(int(from)+j))
			}
		}
	}
}

// TestImportChanged: a file that changed since the survey is refused.
func TestImportChanged(t *testing.T) {
	path := writeFile(t, "cpu.lp", sampleLines)
	v := Values{Kind: Imported, File: path}
	s, err := v.Survey()
	if err != nil {
		t.Fatal(err)
	}
	v.Import = &s
	if err := os.WriteFile(path, []byte(sampleLines+"cpu v=1 40\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Open(); !errors.Is(err, ErrBadValues) || !strings.Contains(err.Error(), "changed since it was checked") {
		t.Errorf("a changed file: %v", err)
	}
}

// BenchmarkImportSurvey is the cost per line of checking a file of line
// protocol; it allocates nothing per line.
func BenchmarkImportSurvey(b *testing.B) {
	var sb strings.Builder
	const lines = 10_000
	for i := range lines {
		fmt.Fprintf(&sb, "cpu,host=h%d,region=eu usage=%d.5 %d\n", i%100, i, 1700000000e9+int64(i)*1e9)
	}
	v := Values{Kind: Imported, File: writeFile(b, "bench.lp", sb.String())}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Survey(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*lines), "ns/line")
}
