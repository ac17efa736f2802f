package reopen

import (
	"fmt"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
)

// TestLostHandle checks what is left to the Handle once engine.Open's
// wrapper refuses the calls after a failed reopen: a call that was waiting
// for the maintenance gets its error without touching the closed handle,
// and Close releases nothing.
func TestLostHandle(t *testing.T) {
	type lib struct{ closed bool }
	var h Handle[*lib]
	h.Set(&lib{})
	lost := fmt.Errorf("%w: reopen failed", engine.ErrBroken)
	inside, release := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- h.Exclusive(func(v **lib) error {
			close(inside)
			<-release
			(*v).closed = true
			return lost
		})
	}()
	<-inside
	waiter := make(chan error, 1)
	go func() {
		waiter <- h.Use(func(v *lib) error {
			if v.closed {
				t.Error("a call that waited for the failed reopen used the closed handle")
			}
			return nil
		})
	}()
	time.Sleep(20 * time.Millisecond) // the call waits for Exclusive
	close(release)
	if err := <-done; err != lost {
		t.Fatalf("Exclusive = %v, want %v", err, lost)
	}
	if err := <-waiter; err != lost {
		t.Errorf("a call that waited for the failed reopen = %v, want its error %v", err, lost)
	}
	if err := h.Close(func(*lib) error { t.Error("Close released a lost handle"); return nil }); err != nil {
		t.Errorf("Close of a lost handle = %v, want nil", err)
	}
}
