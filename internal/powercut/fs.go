package powercut

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// FS is a mounted powercut file system, served by a process of its own.
type FS struct {
	mountpoint string
	server     *exec.Cmd
	ctl        *os.File // the control socket
	enc        *json.Encoder
	dec        *json.Decoder
	exited     chan struct{} // closed once the server process is reaped

	mu     sync.Mutex // serializes Cut and Unmount
	closed bool
}

// Mount serves at mountpoint the store in the directory backing,
// creating either directory if missing. The mount shows the store's
// durable state; what is written to it stays pending until synced, as
// the package documentation describes. backing must be empty or a
// store, and only powercut may read or write it.
//
// The server is the running binary started again, which this package's
// init turns into a server before main runs.
func Mount(mountpoint, backing string, opts Options) (*FS, error) {
	mnt, err := filepath.Abs(mountpoint)
	if err != nil {
		return nil, err
	}
	back, err := filepath.Abs(backing)
	if err != nil {
		return nil, err
	}
	config, err := json.Marshal(serverConfig{Mountpoint: mnt, Backing: back, Options: opts})
	if err != nil {
		return nil, err
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, os.NewSyscallError("socketpair", err)
	}
	ctl, theirs := os.NewFile(uintptr(fds[0]), "powercut control"), os.NewFile(uintptr(fds[1]), "powercut control")
	// The very program this process runs, even if its file was replaced
	// since it started (a rebuild during a long run).
	cmd := exec.Command("/proc/self/exe")
	cmd.Args[0] = os.Args[0]
	cmd.Env = append(os.Environ(), serverEnv+"="+string(config),
		// A race-enabled server would linger a second on exit, for nothing.
		"GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.Stderr = os.Stderr
	// A process group of its own, so that ^C for this process does not
	// kill the server: the server cuts when this process goes.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = cmd.Start()
	theirs.Close()
	if err != nil {
		ctl.Close()
		return nil, fmt.Errorf("powercut: starting the server: %w", err)
	}
	f := &FS{mountpoint: mnt, server: cmd, ctl: ctl, enc: json.NewEncoder(ctl), dec: json.NewDecoder(ctl), exited: make(chan struct{})}
	go func() {
		cmd.Wait()
		close(f.exited)
	}()
	if err := f.await(); err != nil {
		ctl.Close()
		<-f.exited
		return nil, err
	}
	return f, nil
}

// errGone marks the errors of talking to a server that has stopped.
var errGone = errors.New("powercut: the server stopped")

// await reads the server's answer.
func (f *FS) await() error {
	var r reply
	if err := f.dec.Decode(&r); err != nil {
		return fmt.Errorf("%w: %s: %v", errGone, f.mountpoint, err)
	}
	return r.err()
}

func (f *FS) call(op string) error {
	if err := f.enc.Encode(request{Op: op}); err != nil {
		return fmt.Errorf("%w: %s: %v", errGone, f.mountpoint, err)
	}
	return f.await()
}

// Cut cuts the power: the store keeps its durable state and loses
// everything pending, except the blocks a torn Cut (Options.Torn)
// persists. The next Mount of the store shows exactly that state.
//
// Cut detaches the mount lazily, so it works with files still open.
// Those keep working, as on a machine that does not know it lost power:
// they see the abandoned live state, fsync succeeds, and nothing they do
// reaches the store. The server stops when the last of them closes.
func (f *FS) Cut() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return ErrClosed
	}
	f.closed = true
	err := f.call(opCut)
	if errors.Is(err, errGone) {
		return errors.Join(err, f.abandon())
	}
	return errors.Join(err, f.ctl.Close())
}

// Unmount shuts down cleanly: it unmounts, then makes everything pending
// durable, as a clean shutdown syncs every file system. With files still
// open on the mount it fails with ErrBusy and changes nothing.
func (f *FS) Unmount() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return ErrClosed
	}
	err := f.call(opUnmount)
	if errors.Is(err, ErrBusy) {
		return err
	}
	f.closed = true
	if errors.Is(err, errGone) {
		return errors.Join(err, f.abandon())
	}
	err = errors.Join(err, f.ctl.Close())
	<-f.exited
	return err
}

// abandon ends a server that stopped answering, which is a cut, and
// detaches the mount it may have left dead.
func (f *FS) abandon() error {
	f.server.Process.Kill()
	<-f.exited
	return errors.Join(f.ctl.Close(), Cleanup(f.mountpoint))
}

// Done is closed once the server process has exited: after a Cut, when
// the last file open on the mount closed and the live copy is deleted;
// after an Unmount, before it returns.
func (f *FS) Done() <-chan struct{} { return f.exited }
