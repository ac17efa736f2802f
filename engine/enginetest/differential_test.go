package enginetest

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// inclusiveEndName is the faulty engine below, registered for this test.
const inclusiveEndName = "enginetest-inclusive-end"

func init() {
	engine.Register(inclusiveEndName, engine.Driver{Open: func(string, engine.Options) (engine.Backend, error) {
		return inclusiveEnd{memory.New()}, nil
	}})
}

// TestDifferentialCatchesFaults feeds the differential an engine with a
// classic off-by-one, DeleteRange treating end as inclusive, and requires
// a failure that names the seed and the operation. The engine is opened
// with engine.Open, as the differential's engines are, so that what the
// wrapper refuses (inverted ranges) is refused before the fault.
func TestDifferentialCatchesFaults(t *testing.T) {
	rec := &recorder{TB: t}
	done := make(chan struct{})
	dir := t.TempDir()
	go func() {
		defer close(done)
		runDifferential(rec, func() (engine.Engine, error) {
			return engine.Open(inclusiveEndName, dir, nil)
		})
	}()
	<-done
	if rec.failure == "" {
		t.Fatal("the differential passed an engine whose DeleteRange deletes its end key")
	}
	if !strings.Contains(rec.failure, fmt.Sprintf("seed %d", diffSeed)) || !strings.Contains(rec.failure, "op ") {
		t.Fatalf("failure does not name the seed and operation: %s", rec.failure)
	}
	t.Logf("caught: %s", rec.failure)
}

// inclusiveEnd is a faulty engine: its DeleteRange also deletes end.
type inclusiveEnd struct{ *memory.DB }

func (e inclusiveEnd) DeleteRange(start, end []byte) error {
	if err := e.DB.DeleteRange(start, end); err != nil {
		return err
	}
	if bytes.Compare(start, end) < 0 {
		return e.DB.Delete(end)
	}
	return nil
}

// recorder stands in for the test given to runDifferential, recording
// its failure instead of failing the real test.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failure = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
