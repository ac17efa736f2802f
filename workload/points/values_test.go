package points

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsbench/storage/internal/builddir"
)

// sampleSeed is a few rows of the real seed's CSV: two stations, one
// measurement of wind gust each.
const sampleSeed = "testdata/weather-sample.csv"

// everyValues are the kinds and encodings of values, on the sample seed.
var everyValues = []Values{
	{},
	{Encoding: Float64},
	{Kind: Real, File: sampleSeed},
	{Kind: Real, Encoding: Float64, File: sampleSeed},
}

func load(t testing.TB, v Values) Generator {
	t.Helper()
	src, err := v.Load()
	if err != nil {
		t.Fatal(err)
	}
	return Generator{Series: 40, Seed: 3, Values: src}
}

// TestValuesRoundTrip: every kind and encoding writes values that check
// out, the same through Fill and Encode, of the sizes LogicalBytes counts;
// a changed byte is reported with both numbers.
func TestValuesRoundTrip(t *testing.T) {
	for _, v := range everyValues {
		t.Run(v.String(), func(t *testing.T) {
			g := load(t, v)
			var b Batch
			for start := int64(0); start < 400; start += 40 {
				b.Fill(g, start, 40)
				for j := range b.Len() {
					seq := uint64(start) + uint64(j) + 1
					val := b.Value(j)
					if bad := g.CheckValue(seq, val); bad != "" {
						t.Fatalf("point %d: %s", seq, bad)
					}
					if enc := g.Encode(nil, seq); string(enc) != string(val) {
						t.Fatalf("point %d: Encode %x, Fill %x", seq, enc, val)
					}
				}
				if got := g.LogicalBytes(start, start+40); got != b.Logical() {
					t.Fatalf("LogicalBytes = %d, batch has %d", got, b.Logical())
				}
			}
			right := g.Encode(nil, 7)
			if n := testing.AllocsPerRun(100, func() { g.CheckValue(7, right) }); n != 0 {
				t.Errorf("%v allocations to check a right value", n)
			}
			wrong := append([]byte(nil), right...)
			wrong[len(wrong)-1] ^= 0x40
			bad := g.CheckValue(7, wrong)
			if bad == "" || !strings.HasPrefix(bad, "value ") || !strings.Contains(bad, ", want ") {
				t.Errorf("a changed byte: %q", bad)
			}
			if bad := g.CheckValue(7, right[:len(right)-1]); bad == "" {
				t.Error("a short value passed")
			}
		})
	}
}

// TestRealValues: real values are the seed's measurements, each series one
// column from its own phase, scaled by a power of two; the seed moves the
// phases.
func TestRealValues(t *testing.T) {
	g := load(t, Values{Kind: Real, Encoding: Float64, File: sampleSeed})
	cols := g.Values.columns
	if len(cols) != 18 || len(cols[0]) != 4 || len(cols[9]) != 3 || len(cols[5]) != 1 || cols[5][0] != 20.71404 {
		t.Fatalf("columns: %v", cols)
	}
	inColumn := func(x float64, col []float64) bool {
		for _, c := range col {
			for _, scale := range scales {
				if x == c*scale {
					return true
				}
			}
		}
		return false
	}
	for s := int64(0); s < 40; s++ {
		x := g.Values.real(g.Seed, s, s%18, 0)
		if !inColumn(x, cols[s%18]) {
			t.Fatalf("series %d: %v is not a scaled measurement of its column %v", s, x, cols[s%18])
		}
	}
	other := Generator{Series: 40, Seed: 4, Values: g.Values}
	same := true
	for s := int64(0); s < 40; s++ {
		same = same && other.Values.real(other.Seed, s, s%18, 0) == g.Values.real(g.Seed, s, s%18, 0)
	}
	if same {
		t.Error("another seed, the same real values")
	}
}

// TestTheSeed: set-up's seed has the rows and values it was pinned with.
func TestTheSeed(t *testing.T) {
	file := builddir.Find(SeedFile)
	if file == "" {
		t.Skip("build/" + SeedFile + " is missing: make setup fetches it")
	}
	src, err := Values{Kind: Real, File: file}.Load()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, col := range src.columns {
		n += len(col)
	}
	if len(src.columns) != 27 || n != 211_061 {
		t.Errorf("%d columns of %d values; want 27 of 211,061", len(src.columns), n)
	}
}

func TestValuesRefused(t *testing.T) {
	dir := t.TempDir()
	noGust := filepath.Join(dir, "nogust.csv")
	os.WriteFile(noGust, []byte("origin,temp,dewp,humid,wind_dir,wind_speed,wind_gust,precip,pressure,visib\nEWR,1,2,3,4,5,NA,7,8,9\n"), 0o644)
	notNumber := filepath.Join(dir, "text.csv")
	os.WriteFile(notNumber, []byte("origin,temp,dewp,humid,wind_dir,wind_speed,wind_gust,precip,pressure,visib\nEWR,1,2,3,4,5,6,7,8,9\nEWR,warm,2,3,4,5,6,7,8,9\n"), 0o644)
	for v, want := range map[Values]string{
		{Kind: "gaussian"}:                `values "gaussian": give random, real or a file`,
		{Encoding: "gorilla"}:             `value encoding "gorilla": give protobuf or float64`,
		{Kind: Real}:                      "run make setup",
		{Kind: Real, File: dir + "/none"}: "no such file or directory: run make setup",
		{Kind: Real, File: noGust}:        "no wind_gust measured at station 1",
		{Kind: Real, File: notNumber}:     `line 3: temp: strconv.ParseFloat: parsing "warm"`,
	} {
		_, err := v.Load()
		if !errors.Is(err, ErrBadValues) || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", v, err, want)
		}
	}
}

// BenchmarkFillBatchValues is BenchmarkFillBatch for each kind and
// encoding of values: the cost per point of making them.
func BenchmarkFillBatchValues(b *testing.B) {
	file := builddir.Find(SeedFile)
	for _, v := range []Values{{}, {Encoding: Float64}, {Kind: Real, File: file}, {Kind: Real, Encoding: Float64, File: file}} {
		b.Run("values="+strings.ReplaceAll(v.String(), ", ", "/"), func(b *testing.B) {
			if v.Kind == Real && file == "" {
				b.Skip("build/" + SeedFile + " is missing: make setup fetches it")
			}
			g := load(b, v)
			g.Series = 500_000
			var buf Batch
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				buf.Fill(g, int64(i)*1000, 1000)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1000), "ns/point")
		})
	}
}
