package engine_test

import (
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/memory"
)

// A driver whose backend describes itself, runs in other processes and
// has limits of its own.
func init() {
	engine.Register("testcluster", engine.Driver{
		Open: func(string, engine.Options) (engine.Backend, error) {
			return cluster{memory.New()}, nil
		},
		Limits: engine.Limits{Copies: 1},
	})
}

type cluster struct{ *memory.DB }

func (cluster) Describe() string             { return "a cluster of 3" }
func (cluster) PIDs() []int                  { return []int{7, 8, 9} }
func (cluster) Limits() engine.Limits        { return engine.Limits{Copies: 3} }
func (cluster) Sizes() (int64, int64, error) { return 1, 2, nil }

func TestUnwrap(t *testing.T) {
	db, err := engine.Open("testcluster", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, ok := db.(engine.Describer); ok {
		t.Fatal("the wrapper forwards Describe; Unwrap would not be needed")
	}
	if _, ok := engine.Unwrap(db).(cluster); !ok {
		t.Fatalf("Unwrap = %T, want the backend", engine.Unwrap(db))
	}
	if be := engine.Unwrap(memory.New()); be != nil {
		t.Fatalf("Unwrap of an engine not from Open = %T, want nil", be)
	}
	if d, ok := engine.BackendAs[engine.Describer](db); !ok || d.Describe() != "a cluster of 3" {
		t.Fatalf("BackendAs[Describer] = %v, %v", d, ok)
	}
	if p, ok := engine.BackendAs[engine.Processes](db); !ok || len(p.PIDs()) != 3 {
		t.Fatalf("BackendAs[Processes] = %v, %v", p, ok)
	}
	if _, ok := engine.BackendAs[engine.Sizer](memory.New()); ok {
		t.Fatal("BackendAs[Sizer] of memory = ok, want not")
	}
	if n := engine.CopiesOf(db); n != 3 {
		t.Fatalf("CopiesOf = %d, want the backend's Limits (3) over the driver's (1)", n)
	}
	if n := engine.CopiesOf(memory.New()); n != 1 {
		t.Fatalf("CopiesOf(memory) = %d, want 1", n)
	}
}
