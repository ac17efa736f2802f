package points

import (
	"strings"
	"testing"

	"github.com/tsbench/storage/workload/harness"
)

func TestSumsAdd(t *testing.T) {
	var s Sums
	d := s.Add([]byte("k1"), []byte("v1"))
	s.Add([]byte("k2"), []byte("v2"))
	if d != Digest([]byte("k1"), []byte("v1")) {
		t.Errorf("Add returned %x, not the point's digest", d)
	}
	if want := Digest([]byte("k1"), []byte("v1")) + Digest([]byte("k2"), []byte("v2")); s != (Sums{N: 2, Sum: want}) {
		t.Errorf("Add twice = %+v, want {2 %x}", s, want)
	}
}

func TestCheckSums(t *testing.T) {
	f := &File{series: []fileSeries{{name: "cpu,host=a usage"}, {name: "mem free"}}}
	want := Sums{N: 10, Sum: 100}
	for _, c := range []struct {
		name   string
		got    Sums
		wrong  bool
		counts harness.Verification // Missing, Unexpected, Wrong
		note   string               // in the note; "" for none
	}{
		{"missing", Sums{N: 7, Sum: 70}, false, harness.Verification{Missing: 3}, "3 of its 10 acknowledged points missing"},
		{"unexpected", Sums{N: 12, Sum: 120}, false, harness.Verification{Unexpected: 2}, "12 acknowledged points read, not 10"},
		{"differs", Sums{N: 10, Sum: 99}, false, harness.Verification{Wrong: 1}, "its 10 acknowledged points are not the file's"},
		{"differs, already wrong", Sums{N: 10, Sum: 99}, true, harness.Verification{}, ""},
		{"missing, already wrong", Sums{N: 9, Sum: 99}, true, harness.Verification{Missing: 1}, "1 of its 10"},
		{"equal", want, false, harness.Verification{}, ""},
	} {
		v := harness.Verification{Read: 5}
		found := f.CheckSums(&v, 1, c.got, want, c.wrong, "acknowledged points")
		if v.Missing != c.counts.Missing || v.Unexpected != c.counts.Unexpected || v.Wrong != c.counts.Wrong || v.Read != 5 || v.Expired != 0 {
			t.Errorf("%s: counted %+v, want missing %d, unexpected %d, wrong %d", c.name, v, c.counts.Missing, c.counts.Unexpected, c.counts.Wrong)
		}
		if found != (c.note != "") {
			t.Errorf("%s: CheckSums = %v, want %v", c.name, found, c.note != "")
		}
		if c.note == "" && v.First != "" || c.note != "" && (!strings.HasPrefix(v.First, "series 1 (mem free): ") || !strings.Contains(v.First, c.note)) {
			t.Errorf("%s: noted %q, want one naming series 1 (mem free) and %q", c.name, v.First, c.note)
		}
	}
}
