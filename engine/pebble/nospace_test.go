package pebble

import (
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// TestWaitGivesUpOnFullDisk checks that a Flush or Compact waiting for
// background work that Pebble retries for ever on a full disk returns
// ErrNoSpace and ErrBroken once a background error says so, and that
// other background errors and finished work pass through.
func TestWaitGivesUpOnFullDisk(t *testing.T) {
	db := &DB{noSpace: newNoSpace()}
	l := db.noSpace.listener()
	if err := db.wait(func() error { return nil }); err != nil {
		t.Fatalf("wait on finished work = %v", err)
	}
	l.BackgroundError(errors.New("pebble: some other failure"))
	forever := make(chan struct{})
	defer close(forever)
	result := make(chan error, 1)
	go func() { result <- db.wait(func() error { <-forever; return nil }) }()
	select {
	case err := <-result:
		t.Fatalf("wait returned %v after an error that is not a full disk", err)
	case <-time.After(50 * time.Millisecond):
	}
	l.BackgroundError(fmt.Errorf("flush: write 000012.sst: %w", syscall.ENOSPC))
	select {
	case err := <-result:
		if !errors.Is(err, engine.ErrNoSpace) || !errors.Is(err, engine.ErrBroken) {
			t.Fatalf("wait = %v, want ErrNoSpace and ErrBroken", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("wait did not give up after a full-disk background error")
	}
	if !db.stopped.Load() {
		t.Error("giving up did not mark the engine stopped: its Close would wait for Pebble")
	}
}
