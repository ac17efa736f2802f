package harness

import (
	"errors"
	"strings"
	"testing"
)

func TestWarningsOncePerKind(t *testing.T) {
	var b strings.Builder
	w := &Warnings{Log: &b, Prefix: "micro", Part: "benchmark"}
	err := errors.New("no /proc")
	for range 3 {
		w.Missing("rss", err)
		w.Missing("io", err)
		w.Missing("processes", err)
		w.Warn("sizes", "%s: no engine sizes", "write")
	}
	want := "micro: peak RSS covers the whole process, not each benchmark: no /proc\n" +
		"micro: no io figures: no /proc\n" +
		"micro: no /proc\n" +
		"micro: write: no engine sizes\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var silent Warnings // no Log: discards
	silent.Missing("rss", err)
}
