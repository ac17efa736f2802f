package pebble

import (
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/enginetest"
)

// TestFatalStops checks that Pebble's fatal path, which would end the
// process, becomes an error naming the full disk and wrapping
// engine.ErrBroken, and that Close then leaves Pebble alone. That the
// engine refuses every call after such an error is engine.Open's rule,
// which enginetest's Broken checks on every backend.
func TestFatalStops(t *testing.T) {
	db := enginetest.Open(t, "pebble", t.TempDir(), nil)
	be, _ := engine.BackendAs[*DB](db)
	full := &os.PathError{Op: "write", Path: "000002.log", Err: syscall.ENOSPC}
	err := func() (err error) {
		defer be.stop(&err)
		quietLogger{}.Fatalf("pebble: fatal commit error: %v", full)
		return nil
	}()
	if !errors.Is(err, engine.ErrNoSpace) || !errors.Is(err, engine.ErrBroken) {
		t.Fatalf("fatal commit error on a full disk = %v, want engine.ErrNoSpace and engine.ErrBroken", err)
	}
	if !be.stopped.Load() {
		t.Error("a fatal error did not mark the engine stopped")
	}
	if err := db.Close(); err != nil {
		t.Errorf("Close after a fatal error = %v, want nil", err)
	}
}

// TestOtherPanicsGoOn checks that a panic that is not Pebble's failure to
// write is not swallowed.
func TestOtherPanicsGoOn(t *testing.T) {
	db := &DB{}
	defer func() {
		if r := recover(); r != "bug" {
			t.Errorf("recovered %v, want the panic to go on", r)
		}
		if db.stopped.Load() {
			t.Error("an unrelated panic marked the engine stopped")
		}
	}()
	var err error
	defer db.stop(&err)
	panic("bug")
}
