package etcd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/tsbench/storage/engine"
)

const (
	// startTimeout bounds the wait for a local cluster to elect a leader
	// with every member up; a fresh 3-member cluster takes 1-3 s.
	startTimeout = 30 * time.Second
	// stopTimeout is how long a member may take to exit after SIGTERM
	// before it is killed.
	stopTimeout = 10 * time.Second
	// logLines is how much of a failed member's log an error quotes.
	logLines = 5
	// portTimeout bounds the wait for a member's ports to be free: the
	// members of a process that was just killed get SIGKILL from the
	// kernel (Pdeathsig) but release their ports only once they have
	// exited, some milliseconds later.
	portTimeout = 10 * time.Second
)

// waitPorts waits up to portTimeout until every port of l's members can
// be listened on, or fails with ErrStart naming the one still taken.
func waitPorts(l layout) error {
	deadline := time.Now().Add(portTimeout)
	for _, m := range l.Members {
		for _, p := range []int{m.ClientPort, m.PeerPort} {
			for {
				ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
				if err == nil {
					ln.Close()
					break
				}
				if !errors.Is(err, syscall.EADDRINUSE) {
					return fmt.Errorf("%w: port %d of member %s: %w", ErrStart, p, m.Name, err)
				}
				if time.Now().After(deadline) {
					return fmt.Errorf("%w: port %d of member %s is still taken by another process after %v (%v); stop it (an etcd of this directory still running?), or choose an empty directory",
						ErrStart, p, m.Name, portTimeout, err)
				}
				time.Sleep(50 * time.Millisecond)
			}
		}
	}
	return nil
}

// cluster is a local cluster: etcd members on loopback ports, each with
// its data in a subdirectory of the engine directory.
type cluster struct {
	dir string
	// command makes member i's command, to start it again (restart).
	command func(i int) *exec.Cmd
	// mu guards members' elements, which restart replaces while a
	// sampler may read PIDs.
	mu      sync.Mutex
	members []*member
}

// startCluster starts l's members over their data in dir. A restart reuses
// the ports recorded in l, since the members know each other by them.
func startCluster(bin, dir string, l layout, o Options, sync engine.SyncMode) (*cluster, error) {
	if err := waitPorts(l); err != nil {
		return nil, err
	}
	var initial []string
	for _, m := range l.Members {
		initial = append(initial, m.Name+"="+m.peerURL())
	}
	command := func(i int) *exec.Cmd {
		m := l.Members[i]
		// Every flag means the same to etcd 3.4 and 3.6. --logger zap is
		// 3.6's only logger, and not 3.4's default (capnslog).
		args := []string{
			"--name", m.Name,
			"--data-dir", filepath.Join(dir, m.Name),
			"--listen-client-urls", m.clientURL(), "--advertise-client-urls", m.clientURL(),
			"--listen-peer-urls", m.peerURL(), "--initial-advertise-peer-urls", m.peerURL(),
			"--initial-cluster", strings.Join(initial, ","),
			"--initial-cluster-token", l.Token,
			"--initial-cluster-state", "new", // ignored once the member has data
			"--quota-backend-bytes", strconv.FormatInt(o.BackendQuota, 10),
			"--max-txn-ops", strconv.Itoa(o.MaxTxnOps),
			"--max-request-bytes", strconv.Itoa(o.MaxRequestBytes),
			"--snapshot-count", strconv.Itoa(o.SnapshotCount),
			"--logger", "zap", "--log-outputs", "stderr", "--log-level", "warn",
		}
		if sync == engine.SyncNone {
			// The WAL is written without fsync: acknowledged writes survive
			// a crash of the members, not of the machine, as "none" says.
			args = append(args, "--unsafe-no-fsync")
		}
		if o.HeapProfiles != "" {
			args = append(args, "--enable-pprof")
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = memberEnv()
		return cmd
	}
	var cmds []*exec.Cmd
	for i := range l.Members {
		cmds = append(cmds, command(i))
	}
	ms, err := spawn(l.Members, cmds)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrStart, err)
	}
	return &cluster{dir: dir, command: command, members: ms}, nil
}

// endpoints are the members' client URLs.
func (c *cluster) endpoints() []string {
	var eps []string
	for _, m := range c.members {
		eps = append(eps, m.addr.clientURL())
	}
	return eps
}

// waitHealthy returns once every member is up and agrees on a leader, and
// a linearizable read through cli succeeds, or when ctx is done.
func (c *cluster) waitHealthy(ctx context.Context, cli *clientv3.Client, probe func(context.Context) error) error {
	deadline := time.Now().Add(startTimeout)
	var last error
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%w: gave up waiting for the cluster in %s: %w", ErrStart, c.dir, err)
		}
		for _, m := range c.members {
			if m.exited() {
				return fmt.Errorf("%w: member %s exited (%v); %s", ErrStart, m.addr.Name, m.err, quote(m.log, logLines))
			}
		}
		if last = c.healthy(ctx, cli, probe); last == nil {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The members are up but not serving: their logs say why (no
	// leader, a lost log), where the probe's error cannot.
	var logs []string
	for _, m := range c.members {
		logs = append(logs, fmt.Sprintf("member %s: %s", m.addr.Name, quote(m.log, logLines)))
	}
	return fmt.Errorf("%w: not healthy within %v in %s: %w; %s", ErrStart, startTimeout, c.dir, last, strings.Join(logs, "; "))
}

// healthy checks the cluster once.
func (c *cluster) healthy(ctx context.Context, cli *clientv3.Client, probe func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var leader uint64
	for _, m := range c.members {
		st, err := cli.Status(ctx, m.addr.clientURL())
		switch {
		case err != nil:
			return fmt.Errorf("member %s: %w", m.addr.Name, err)
		case st.Leader == 0:
			return fmt.Errorf("member %s has no leader yet", m.addr.Name)
		case leader != 0 && st.Leader != leader:
			return errors.New("members disagree on the leader")
		}
		leader = st.Leader
	}
	return probe(ctx)
}

// stop ends every member, followers first: a leader stopped while its
// followers run first tries to hand its leadership over, which takes
// seconds (7 s for 3 members stopped at once). A member that does not exit
// within stopTimeout of SIGTERM is killed.
//
// A member that has already exited (killed, or crashed) is left out: there
// is nothing to stop, and asking it who leads would only wait.
func (c *cluster) stop(cli *clientv3.Client) error {
	var leaders, followers []*member
	for _, m := range c.members {
		if m.exited() {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		st, err := cli.Status(ctx, m.addr.clientURL())
		cancel()
		if err == nil && st.Leader == st.Header.MemberId {
			leaders = append(leaders, m)
		} else {
			followers = append(followers, m)
		}
	}
	var errs []error
	for _, group := range [][]*member{followers, leaders} {
		for _, m := range group {
			m.cmd.Process.Signal(syscall.SIGTERM)
		}
		for _, m := range group {
			select {
			case <-m.done:
			case <-time.After(stopTimeout):
				m.cmd.Process.Kill()
				<-m.done
				errs = append(errs, fmt.Errorf("etcd: member %s did not stop within %v of SIGTERM and was killed; %s",
					m.addr.Name, stopTimeout, quote(m.log, logLines)))
			}
		}
	}
	return errors.Join(errs...)
}

// exitedMember returns a member whose process has ended, nil if every
// member runs or c is nil (a given cluster).
func (c *cluster) exitedMember() *member {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, m := range c.members {
		if m.exited() {
			return m
		}
	}
	return nil
}

// kill ends every member at once, for an Open that failed half way.
func (c *cluster) kill() {
	for _, m := range c.members {
		m.cmd.Process.Kill()
	}
	for _, m := range c.members {
		<-m.done
	}
}
