package logtail

import (
	"bytes"
	"slices"
	"testing"
)

func TestTailKeepsTheEnd(t *testing.T) {
	var tl Tail
	tl.Write(bytes.Repeat([]byte("x"), Size))
	tl.Write([]byte("\n  first  \n\nsecond\nthird\n"))
	if got, want := tl.Lines(2), []string{"second", "third"}; !slices.Equal(got, want) {
		t.Errorf("Lines(2) = %q, want %q", got, want)
	}
	if len(tl.buf) != Size {
		t.Errorf("kept %d bytes, want %d", len(tl.buf), Size)
	}
	if got := new(Tail).Lines(3); len(got) != 0 {
		t.Errorf("Lines of nothing = %q, want none", got)
	}
}
