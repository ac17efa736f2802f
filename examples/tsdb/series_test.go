package main

import (
	"errors"
	"testing"
)

func TestSeriesName(t *testing.T) {
	for _, c := range []struct {
		measurement string
		tags        []tag
		field       string
		want        string
	}{
		{"cpu", []tag{{[]byte("region"), []byte("eu")}, {[]byte("host"), []byte("a")}}, "usage", "cpu,host=a,region=eu usage"},
		{"cpu", nil, "usage", "cpu usage"},
		{"my cpu", []tag{{[]byte("k"), []byte("a b,c=d")}}, "f x=", `my\ cpu,k=a\ b\,c\=d f\ x\=`},
	} {
		got, err := seriesName([]byte(c.measurement), c.tags, []byte(c.field))
		if err != nil || got != c.want {
			t.Errorf("seriesName(%q, %q) = %q, %v; want %q", c.measurement, c.field, got, err, c.want)
			continue
		}
		// A query names the series as the index does.
		if back, err := parseSeriesName(got); err != nil || back != got {
			t.Errorf("parseSeriesName(%q) = %q, %v", got, back, err)
		}
	}
	if got, err := parseSeriesName("cpu,region=eu,host=a usage"); err != nil || got != "cpu,host=a,region=eu usage" {
		t.Errorf("tags out of order: %q, %v", got, err)
	}
}

func TestBadSeriesName(t *testing.T) {
	for _, s := range []string{"", "cpu", "cpu,host=a", "cpu a,b", "cpu a=1", "cpu a\ncpu b", "cpu,h=a,h=b a"} {
		if got, err := parseSeriesName(s); !errors.Is(err, errBadRequest) {
			t.Errorf("parseSeriesName(%q) = %q, %v; want errBadRequest", s, got, err)
		}
	}
}
