package crash

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tsbench/storage/internal/powercut"
	"github.com/tsbench/storage/internal/supervise"
	"github.com/tsbench/storage/workload/suite"
)

// powerMount is the file system of a power-loss check (-fault powercut):
// a powercut store in the engine's data directory, mounted there for the
// writers and readers, whose data directory is the mount's root. The
// engine's process mounts it, and its server process, a child of the
// engine's process, cuts the power by itself if that process dies, which
// detaches the mount: a run that is stopped leaves no mount behind.
type powerMount struct {
	cfg                 Config
	backing, mountpoint string
	fs                  *powercut.FS
}

// BrokenSync makes the mounts' fsync do nothing
// (powercut.Options.NoopSync). A test sets it in the engine's process to
// prove that the check fails when an engine's syncs do not reach the
// disk.
var BrokenSync bool

// newPowerMount mounts a new store in dir for the first round. The
// engine makes its own files durable, the marker engine.Open writes
// included: nothing is synced for it.
func newPowerMount(dir string, cfg Config) (*powerMount, error) {
	m := &powerMount{cfg: cfg, backing: filepath.Join(dir, "store"), mountpoint: filepath.Join(dir, "mnt")}
	if err := m.mount(1); err != nil {
		return nil, err
	}
	return m, nil
}

// mount mounts the store for the round whose writer is cut on it: the
// round seeds which pending blocks a torn cut keeps.
func (m *powerMount) mount(round int) error {
	fs, err := powercut.Mount(m.mountpoint, m.backing, powercut.Options{
		Torn:     m.cfg.Fault == FaultTorn,
		Seed:     int64(m.cfg.Seed) + int64(round),
		NoopSync: BrokenSync,
		Journal:  m.cfg.Fault == FaultJournal,
	})
	if err != nil {
		return fmt.Errorf("mount the powercut file system: %w", err)
	}
	m.fs = fs
	return nil
}

// round runs one writer on the mount until the power is cut under it
// (Config.CutAt), mounts the store again, which then shows only
// what was synced, and runs one reader on it. The next round's writer
// goes on on the same mount, after whatever the reader left unsynced.
func (m *powerMount) round(e *suite.Engine, cfg Config, round int) (Round, error) {
	var r Round
	n, into := cfg.CutAt(round)
	acks := newAckReader()
	enough := acks.after(n)
	w, err := startWriter(e, m.mountpoint, acks)
	if err != nil {
		return r, err
	}
	select {
	case <-enough:
	case err := <-w.exited:
		return r, w.failed(err)
	case <-time.After(writerWait(e)):
		w.stop()
		return r, fmt.Errorf("writer did not commit %d batches within %v", n, writerWait(e))
	}
	if into > 0 {
		select {
		case <-time.After(time.Duration(into * float64(acks.lastBatch()))):
		case err := <-w.exited:
			return r, w.failed(err)
		}
	}
	// Taken before the cut: each of these commits returned, so what it
	// synced had reached the store.
	r = acks.round()
	cutErr := m.fs.Cut()
	w.stop()
	// The server exits once the killed writer's files have closed.
	select {
	case <-m.fs.Done():
	case <-time.After(supervise.StopDelay):
	}
	if cutErr != nil {
		return r, fmt.Errorf("cut the power: %w", cutErr)
	}
	if err := reapOrphans(); err != nil {
		return r, err
	}
	if err := m.mount(round + 1); err != nil {
		return r, err
	}
	return r, reopen(e, m.mountpoint, &r)
}

// close cuts the power under the last mount, which needs no sync: the
// data goes (or stays with -keep, as the store in the backing directory),
// and waits for its server to delete its live copy.
func (m *powerMount) close() error {
	err := m.fs.Cut()
	if errors.Is(err, powercut.ErrClosed) {
		return nil // a round's cut whose remount failed
	}
	select {
	case <-m.fs.Done():
	case <-time.After(supervise.StopDelay):
	}
	return err
}

// checkPowercut makes sure this process can mount powercut file systems,
// and detaches the dead ones a killed run left in path (their server was
// killed): each answers every access with an error until detached.
func checkPowercut(fault, path string) error {
	if err := powercut.Available(); err != nil {
		return fmt.Errorf("-fault %s mounts a FUSE file system: %v: run as root on a machine with /dev/fuse (modprobe fuse), or use -fault kill", fault, err)
	}
	stale, err := powercut.Stale(path)
	if err != nil {
		return fmt.Errorf("look for dead powercut mounts in %s: %w", path, err)
	}
	for _, mnt := range stale {
		if err := powercut.Cleanup(mnt); err != nil {
			return fmt.Errorf("detach the dead powercut mount %s a killed run left: %v: detach it with umount -l %s", mnt, err, mnt)
		}
	}
	return nil
}
