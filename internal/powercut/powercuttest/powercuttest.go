// Package powercuttest mounts powercut file systems for the tests of
// other packages, as net/http/httptest starts servers: a test mounts a
// store, cuts the power under what it opened there, and finds the
// durable state mounted again; the test's end cuts and detaches it.
package powercuttest

import (
	"errors"
	"testing"
	"time"

	"github.com/tsbench/storage/internal/powercut"
)

// exitWait bounds the wait for a cut mount's server to exit.
const exitWait = 10 * time.Second

// Disk is a powercut store mounted for a test at Dir.
type Disk struct {
	// Dir is the mount point.
	Dir string

	t       testing.TB
	backing string
	fs      *powercut.FS
}

// Mount mounts a new, empty store, or skips the test where this machine
// cannot mount FUSE file systems.
func Mount(t testing.TB) *Disk {
	t.Helper()
	if err := powercut.Available(); err != nil {
		t.Skip(err)
	}
	d := &Disk{Dir: t.TempDir(), t: t, backing: t.TempDir()}
	d.mount()
	t.Cleanup(func() {
		if err := d.fs.Cut(); err != nil && !errors.Is(err, powercut.ErrClosed) {
			t.Error(err)
		}
		d.wait()
		if err := powercut.Cleanup(d.Dir); err != nil {
			t.Error(err)
		}
	})
	return d
}

// Cut cuts the power, calls release to close what the test still has open
// on the mount (it then acts on the abandoned state, as on a machine that
// does not know it lost power; the server exits once those files are
// closed), and mounts the store again: Dir shows the durable state.
func (d *Disk) Cut(release func()) {
	d.t.Helper()
	if err := d.fs.Cut(); err != nil {
		d.t.Fatal(err)
	}
	if release != nil {
		release()
	}
	d.wait()
	d.mount()
}

func (d *Disk) mount() {
	d.t.Helper()
	fs, err := powercut.Mount(d.Dir, d.backing, powercut.Options{})
	if err != nil {
		d.t.Fatal(err)
	}
	d.fs = fs
}

// wait waits for the cut mount's server to exit.
func (d *Disk) wait() {
	select {
	case <-d.fs.Done():
	case <-time.After(exitWait):
		d.t.Errorf("the powercut server did not exit within %v of the cut: a file on the mount is still open", exitWait)
	}
}
