package rangedel_test

import (
	"testing"

	"github.com/tsbench/storage/engine/internal/rangedel"
	"github.com/tsbench/storage/engine/memory"
)

func TestSpan(t *testing.T) {
	db := memory.New()
	defer db.Close()
	for _, k := range []string{"a", "c", "e"} {
		if err := db.Put([]byte(k), nil); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		start, end   []byte
		wantS, wantE string
		wantOK       bool
	}{
		{nil, nil, "", "e\x00", true},
		{[]byte("b"), nil, "b", "e\x00", true},
		{[]byte("f"), nil, "", "", false},
		{[]byte("b"), []byte("d"), "b", "d", true},
		{[]byte("d"), []byte("b"), "", "", false},
	} {
		s, e, ok, err := rangedel.Span(db, c.start, c.end)
		if err != nil || ok != c.wantOK || (ok && (string(s) != c.wantS || string(e) != c.wantE)) {
			t.Errorf("Span(%q, %q) = %q, %q, %v, %v; want %q, %q, %v", c.start, c.end, s, e, ok, err, c.wantS, c.wantE, c.wantOK)
		}
	}
}
