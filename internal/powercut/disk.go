package powercut

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
	"golang.org/x/sys/unix"
)

// fsType is the file system type mounts show, as "fuse.powercut".
const fsType = "powercut"

// disk is the model a server process runs: a loopback mount of the live
// copy, and the store that a sync writes to.
type disk struct {
	mountpoint string
	backing    string
	live       string // this mount's live copy
	opts       Options
	server     *fuse.Server
	served     chan struct{} // closed when the server has stopped
	storeLock  *os.File      // flock of backing: one mount per store
	liveLock   *os.File      // flock of live: tells stale live copies apart

	// gate is held for reading by whatever writes to the store, and for
	// writing by cut and unmount, so that nothing reaches the store after
	// them.
	gate   sync.RWMutex
	closed bool // guarded by gate

	mu      sync.Mutex // guards the namespace: objects, entries, journal
	objects map[uint64]*object
	root    *object
	next    uint64 // next free object ID
	journal []*change
}

// mountDisk mounts at mountpoint the store in backing, both absolute
// paths, creating either directory if missing.
func mountDisk(mountpoint, backing string, opts Options) (_ *disk, err error) {
	d := &disk{mountpoint: mountpoint, backing: backing, opts: opts, served: make(chan struct{})}
	for _, dir := range []string{mountpoint, backing} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	if d.storeLock, err = lock(backing); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			d.storeLock.Close()
		}
	}()
	t, err := readTree(backing)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(backing, dataDir), 0o700); err != nil {
		return nil, err
	}
	if d.live, d.liveLock, err = newLive(backing); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			d.dropLive()
		}
	}()
	if err := d.restore(t); err != nil {
		return nil, fmt.Errorf("powercut: restoring %s: %w", backing, err)
	}
	if err := d.serve(); err != nil {
		return nil, fmt.Errorf("powercut: mounting %s: %w", mountpoint, err)
	}
	return d, nil
}

// serve mounts a loopback of the live copy made of nodes.
func (d *disk) serve() error {
	var st syscall.Stat_t
	if err := syscall.Stat(d.live, &st); err != nil {
		return err
	}
	root := &fs.LoopbackRoot{Path: d.live, Dev: uint64(st.Dev)}
	rootNode := &node{LoopbackNode: &fs.LoopbackNode{RootData: root}, disk: d}
	rootNode.obj.Store(d.root)
	root.RootNode = rootNode
	// Nothing but this mount changes the live copy, so the kernel may
	// cache what it looked up.
	timeout := time.Second
	server, err := fs.Mount(d.mountpoint, rootNode, &fs.Options{
		MountOptions: mountOptions(d.backing),
		EntryTimeout: &timeout,
		AttrTimeout:  &timeout,
	})
	if err != nil {
		return err
	}
	d.server = server
	go func() {
		server.Wait()
		close(d.served)
	}()
	return nil
}

func mountOptions(source string) fuse.MountOptions {
	return fuse.MountOptions{
		DirectMountStrict: true, // mount(2) itself: no fusermount needed as root
		FsName:            source,
		Name:              fsType,
		MaxWrite:          1 << 20,
		// Passthrough would let the kernel write the live copy directly,
		// unseen by the bookkeeping.
		DisabledCapabilities: fuse.CAP_PASSTHROUGH,
		Logger:               log.New(quietLog{}, "powercut: ", log.LstdFlags),
	}
}

// quietLog is go-fuse's log sink: stderr, without the lines a cut makes
// it write every time, which say nothing wrong. Reading the connection
// fails with ECONNABORTED once the cut detached the mount, and an answer
// finds no request waiting (ENOENT) when the process that asked was
// killed.
type quietLog struct{}

func (quietLog) Write(b []byte) (int, error) {
	line := string(b)
	if strings.Contains(line, syscall.ECONNABORTED.Error()) || strings.Contains(line, syscall.ENOENT.Error()) {
		return len(b), nil
	}
	return os.Stderr.Write(b)
}

// cut freezes the store, tearing pending writes first if asked, then
// detaches the mount lazily and lets another mount take the store. The
// server goes on serving files still open, for nothing.
func (d *disk) cut() error {
	d.gate.Lock()
	var errs []error
	if d.opts.Torn {
		if err := d.tear(); err != nil {
			errs = append(errs, fmt.Errorf("powercut: tearing pending writes: %w", err))
		}
	}
	d.closed = true
	d.gate.Unlock()
	if err := unix.Unmount(d.mountpoint, unix.MNT_DETACH); err != nil {
		errs = append(errs, &os.PathError{Op: "unmount", Path: d.mountpoint, Err: err})
	}
	return errors.Join(append(errs, d.storeLock.Close())...)
}

// unmount unmounts, then makes everything pending durable. It reports
// whether the mount went: with files open it stays, and the error wraps
// ErrBusy.
func (d *disk) unmount() (gone bool, err error) {
	if err := d.server.Unmount(); err != nil {
		if errors.Is(err, syscall.EBUSY) {
			return false, fmt.Errorf("%w: files are open on %s", ErrBusy, d.mountpoint)
		}
		return false, &os.PathError{Op: "unmount", Path: d.mountpoint, Err: err}
	}
	<-d.served
	d.gate.Lock()
	err = d.syncAll()
	d.closed = true
	d.gate.Unlock()
	return true, errors.Join(err, d.storeLock.Close(), d.dropLive())
}

// dropLive deletes this mount's live copy.
func (d *disk) dropLive() error {
	err := os.RemoveAll(d.live)
	return errors.Join(err, d.liveLock.Close())
}

// syncFile makes the pending data changes of o durable, reading the
// live data from src.
func (d *disk) syncFile(o *object, src string) syscall.Errno {
	d.gate.RLock()
	defer d.gate.RUnlock()
	if d.closed || d.opts.NoopSync {
		return 0
	}
	if err := d.copyPending(o, src); err != nil {
		return toErrno(err)
	}
	if !d.opts.Journal {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return toErrno(d.commitNames())
}

// commitNames makes every pending name change durable, in order, as a
// journal commit does. Call with disk.mu held.
func (d *disk) commitNames() error {
	for _, c := range d.journal {
		c.unsynced = nil
	}
	return d.applySynced()
}

// syncDir makes durable the pending changes of the entries of dir, and
// of other directories, that now wait for no fsync.
func (d *disk) syncDir(dir *object) syscall.Errno {
	d.gate.RLock()
	defer d.gate.RUnlock()
	if d.closed {
		return 0
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.markSynced(dir)
	return toErrno(d.applySynced())
}

// applySynced makes durable the name changes that wait for no fsync
// (applyReady), and saves the durable namespace if any did. Call with
// disk.mu held.
func (d *disk) applySynced() error {
	changed, dead := d.applyReady()
	if !changed {
		return nil
	}
	if err := d.saveTree(); err != nil {
		return err
	}
	return d.removeData(dead)
}

// syncAll makes everything pending durable. Call with the gate held for
// writing and the server stopped.
func (d *disk) syncAll() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.journal {
		c.unsynced = nil
	}
	// Everything applies: in journal order, the changes replay the live
	// history.
	_, dead := d.applyReady()
	var errs []error
	for o, p := range d.livePaths() {
		if o.isRegular() {
			errs = append(errs, d.copyPending(o, d.livePath(p)))
		}
	}
	if err := d.saveTree(); err != nil {
		return errors.Join(append(errs, err)...)
	}
	return errors.Join(append(errs, d.removeData(dead))...)
}

// toErrno is the errno to answer a failed store write with.
func toErrno(err error) syscall.Errno {
	if err == nil {
		return 0
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return syscall.EIO
}
