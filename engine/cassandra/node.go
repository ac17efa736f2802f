package cassandra

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/tsbench/storage/engine/internal/logtail"
)

const (
	// stopTimeout is how long a node may take to exit after SIGTERM (it
	// drains: flushes its memtables) before it is killed.
	stopTimeout = 60 * time.Second
	// portTimeout bounds the wait for a node's ports to be free: the
	// nodes of a process that was just killed get SIGKILL from the kernel
	// (Pdeathsig) but release their ports only once they have exited.
	portTimeout = 5 * time.Second
	// logLines is how much of a failed node's log an error quotes.
	logLines = 4
)

// node is one running Cassandra process of a local cluster.
type node struct {
	process
	cfg nodeConfig
	out *logtail.Tail // its stdout and stderr, before logback takes over
}

// waitCQL waits until the node accepts connections on its CQL port, or it
// exits, or timeout passes; then it is killed and the error quotes its
// log.
func (n *node) waitCQL(timeout time.Duration) error {
	addr := net.JoinHostPort(n.cfg.address, strconv.Itoa(cqlPort))
	deadline := time.Now().Add(timeout)
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return nil
		}
		select {
		case <-n.done:
			return fmt.Errorf("%w: node %d (%s) exited (%v) while starting; %s", ErrStart, n.cfg.index, n.cfg.address, n.err, n.quote())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			n.kill()
			return fmt.Errorf("%w: node %d (%s) did not open its CQL port %d within %v (start_timeout); %s",
				ErrStart, n.cfg.index, n.cfg.address, cqlPort, timeout, n.quote())
		}
	}
}

// stop sends SIGTERM and waits for the node to exit, killing it after
// stopTimeout.
func (n *node) stop() error {
	if n.exited() {
		return nil
	}
	n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.done:
		return nil
	case <-time.After(stopTimeout):
		n.kill()
		return fmt.Errorf("cassandra: node %d (%s) did not stop within %v of SIGTERM and was killed; %s", n.cfg.index, n.cfg.address, stopTimeout, n.quote())
	}
}

// quote returns the last lines of the node's log, or of its output
// before its log began, on one line.
func (n *node) quote() string {
	lines := logtail.LastLines(readTail(n.cfg.logFile()), logLines)
	if len(lines) == 0 {
		lines = n.out.Lines(logLines)
	}
	if len(lines) == 0 {
		return "it logged nothing"
	}
	return "its log ends: " + strings.Join(lines, " | ")
}

// readTail returns the end of file f, nil if it cannot be read.
func readTail(f string) []byte {
	b, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	return b[max(0, len(b)-logtail.Size):]
}

// checkPorts waits up to portTimeout for the CQL and storage ports of
// address to be free, or fails with ErrStart naming the one taken.
func checkPorts(address string) error {
	deadline := time.Now().Add(portTimeout)
	for _, p := range []int{cqlPort, storagePort} {
		addr := net.JoinHostPort(address, strconv.Itoa(p))
		for {
			ln, err := net.Listen("tcp", addr)
			if err == nil {
				ln.Close()
				break
			}
			if !errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("%w: %s: %v; choose another [cassandra] address on loopback", ErrStart, addr, err)
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%w: %s is in use by another process (another local Cassandra cluster?): close it, or set [cassandra] address to another loopback range, such as 127.0.1.2", ErrStart, addr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return nil
}

// freePort returns a free port on 127.0.0.1, where a node's JMX listens.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("%w: no free loopback port for JMX: %w", ErrStart, err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
