package report

import (
	"slices"
	"testing"
)

// TestCompareVersions orders releases as numbers, not text.
func TestCompareVersions(t *testing.T) {
	want := []string{"0.9.9", "0.9.33", "0.9.35", "1.0", "1.0.1", "9.10.0", "10.0.1", "10.2.1", "11.8.1", "v2.0.0", "v2.1.7", "v10.0.0"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, CompareVersions)
	if !slices.Equal(got, want) {
		t.Errorf("sorted %q, want %q", got, want)
	}
	if CompareVersions("10.0.01", "10.0.1") != 0 {
		t.Error("10.0.01 and 10.0.1 differ")
	}
}
