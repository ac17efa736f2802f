package cassandra_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/cassandra"
	"github.com/tsbench/storage/engine/enginetest"
	"github.com/tsbench/storage/internal/cgroup"
)

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	return !strings.HasPrefix(strings.TrimSpace(s[strings.LastIndexByte(s, ')')+1:]), "Z")
}

// waitGone fails unless every pid has ended within timeout.
func waitGone(t *testing.T, pids []int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for _, pid := range pids {
		for alive(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("node process %d still runs %v later", pid, timeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// wantEmpty fails if dir holds anything: a failed first Open leaves
// nothing behind.
func wantEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		t.Errorf("a failed first Open left %s behind", e.Name())
	}
}

// oneLine fails unless err is one line.
func oneLine(t *testing.T, err error) {
	t.Helper()
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error of more than one line: %q", err)
	}
}

func TestBadOptions(t *testing.T) {
	for _, c := range []struct {
		o    cassandra.Options
		want string
	}{
		{cassandra.Options{Nodes: 1, RF: 2}, "rf 2 is more than the local cluster's 1 nodes"},
		{cassandra.Options{Consistency: "MOST"}, `consistency "MOST": use one of`},
		{cassandra.Options{Nodes: 1, Consistency: "TWO"}, "consistency TWO needs 2 replicas"},
		{cassandra.Options{Partitioner: "random"}, `partitioner "random"`},
		{cassandra.Options{CommitlogSync: "never"}, `commitlog_sync "never"`},
		{cassandra.Options{Compaction: "tiered"}, `compaction "tiered"`},
		{cassandra.Options{Address: "10.0.0.2"}, `address "10.0.0.2"`},
		{cassandra.Options{Hosts: []string{"127.0.0.1"}, Nodes: 3}, "nodes configure the local cluster"},
		{cassandra.Options{JMX: []string{"127.0.0.1:7199"}}, "jmx names a given cluster's"},
		{cassandra.Options{JVMOptions: []string{"XX:TieredStopAtLevel=1"}}, `jvm_options "XX:TieredStopAtLevel=1"`},
		{cassandra.Options{Hosts: []string{"127.0.0.1"}, JVMOptions: []string{"-Xss1m"}}, "jvm_options configure the local cluster"},
		{cassandra.Options{Heap: 1 << 30, NodeMemory: 1 << 30}, "node_memory 1024 MiB leaves a node with a heap of 1024 MiB"},
		{cassandra.Options{Hosts: []string{"127.0.0.1"}, NodeMemory: 4 << 30}, "node_memory configure the local cluster"},
	} {
		dir := t.TempDir()
		_, err := engine.Open("cassandra", dir, &engine.Options{Engine: &c.o})
		if !errors.Is(err, engine.ErrInvalidOptions) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open with %+v = %v, want ErrInvalidOptions saying %q", c.o, err, c.want)
			continue
		}
		oneLine(t, err)
		wantEmpty(t, dir)
	}
	// The shared sync = batch cannot go with a commit log synced later.
	_, err := engine.Open("cassandra", t.TempDir(), &engine.Options{Sync: engine.SyncBatch, Engine: &cassandra.Options{CommitlogSync: "periodic"}})
	if !errors.Is(err, engine.ErrInvalidOptions) {
		t.Errorf("sync batch with commitlog_sync periodic = %v, want ErrInvalidOptions", err)
	}
}

func TestNoJava(t *testing.T) {
	dir := t.TempDir()
	_, err := engine.Open("cassandra", dir, &engine.Options{Engine: &cassandra.Options{Java: filepath.Join(dir, "no-java")}})
	if !errors.Is(err, cassandra.ErrNoJava) || !strings.Contains(err.Error(), "make setup") {
		t.Fatalf("Open without java = %v, want ErrNoJava naming make setup", err)
	}
	oneLine(t, err)
	wantEmpty(t, dir)
}

func TestNoServer(t *testing.T) {
	needServer(t)
	dir := t.TempDir()
	_, err := engine.Open("cassandra", dir, &engine.Options{Engine: &cassandra.Options{Nodes: 1, Address: "127.0.3.2", Classpath: filepath.Join(dir, "nosuch")}})
	if !errors.Is(err, cassandra.ErrNoServer) || !strings.Contains(err.Error(), "build-cassandra.sh") {
		t.Fatalf("Open without the server's jars = %v, want ErrNoServer naming scripts/build-cassandra.sh", err)
	}
	oneLine(t, err)
	wantEmpty(t, dir)
}

// TestNoProbe opens a local cluster with the server's jars but without
// the probe that Compact runs beside them: Open refuses before any node
// starts rather than Compact after a long load.
func TestNoProbe(t *testing.T) {
	needServer(t)
	b, err := os.ReadFile("../../build/cassandra/classpath")
	if err != nil {
		t.Skipf("no classpath file in this checkout: %v", err)
	}
	classpath := filepath.Join(t.TempDir(), "classpath") // no probe/ beside it
	if err := os.WriteFile(classpath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	_, err = engine.Open("cassandra", dir, &engine.Options{Engine: &cassandra.Options{Nodes: 1, Address: "127.0.3.2", Classpath: classpath}})
	if !errors.Is(err, cassandra.ErrNoServer) || !strings.Contains(err.Error(), "no compiled probe") {
		t.Fatalf("Open without the probe = %v, want ErrNoServer saying there is no compiled probe", err)
	}
	oneLine(t, err)
	wantEmpty(t, dir)
}

// TestNodeDoesNotStart starts a node that never opens its CQL port (its
// native transport off) and gives it 15 s, time enough to log: Open fails
// in one line quoting its log, and leaves no process and nothing in the
// directory. (A node merely given too short a time may log nothing yet on
// a loaded machine.) The node is frozen once it has logged, so that it
// does not spend the CPU of a whole start on the way.
func TestNodeDoesNotStart(t *testing.T) {
	needServer(t)
	t.Parallel()
	dir := t.TempDir()
	jvm := append(slices.Clone(testJVM), "-Dcassandra.start_native_transport=false")
	frozen := freezeOnceLogged(dir)
	_, err := engine.Open("cassandra", dir, &engine.Options{Engine: &cassandra.Options{Nodes: 1, Address: "127.0.6.2", Heap: testHeap, JVMOptions: jvm, StartTimeout: 15 * time.Second}})
	t.Logf("node frozen once it had logged: %v", frozen())
	if !errors.Is(err, cassandra.ErrStart) || !strings.Contains(err.Error(), "start_timeout") || !strings.Contains(err.Error(), "its log ") {
		t.Fatalf("Open with a node that does not come up in time = %v, want ErrStart quoting its log", err)
	}
	t.Log(err)
	oneLine(t, err)
	wantEmpty(t, dir)
	noProcessIn(t, dir)
}

// freezeOnceLogged stops with SIGSTOP the node that is started in dir
// once its log has a line, and reports through the function it returns,
// which ends the watch, whether it did. A start costs a node some 7 s of
// CPU, of which the frozen node spends under one; Open's timeout kills it
// all the same, and what it logged is there to quote.
func freezeOnceLogged(dir string) (stopped func() bool) {
	done, frozen := make(chan struct{}), make(chan bool, 1)
	go func() {
		for {
			if pid, logdir := nodeIn(dir); pid > 0 {
				if st, err := os.Stat(filepath.Join(logdir, "system.log")); err == nil && st.Size() > 0 {
					frozen <- syscall.Kill(pid, syscall.SIGSTOP) == nil
					return
				}
			}
			select {
			case <-done:
				frozen <- false
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return func() bool {
		close(done)
		return <-frozen
	}
}

// nodeIn returns the pid and log directory of a node whose command line
// names dir, or 0.
func nodeIn(dir string) (pid int, logdir string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), dir) || !strings.Contains(string(b), "CassandraDaemon") {
			continue
		}
		for _, arg := range strings.Split(string(b), "\x00") {
			if d, ok := strings.CutPrefix(arg, "-Dcassandra.logdir="); ok {
				fmt.Sscan(filepath.Base(filepath.Dir(p)), &pid)
				return pid, d
			}
		}
	}
	return 0, ""
}

// noProcessIn fails if a process runs with dir in its command line.
func noProcessIn(t *testing.T, dir string) {
	t.Helper()
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), dir) {
			t.Errorf("a process still runs in %s: %.200s", dir, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
}

// TestPortTaken holds the CQL port of a node's address: Open fails in
// one line naming it, before any node starts.
func TestPortTaken(t *testing.T) {
	t.Parallel() // Open waits for the port to be freed first
	needServer(t)
	ln, err := net.Listen("tcp", "127.0.4.2:9042")
	if err != nil {
		t.Skipf("cannot listen on 127.0.4.2: %v", err)
	}
	defer ln.Close()
	dir := t.TempDir()
	_, err = engine.Open("cassandra", dir, &engine.Options{Engine: &cassandra.Options{Nodes: 1, Address: "127.0.4.2"}})
	if !errors.Is(err, cassandra.ErrStart) || !strings.Contains(err.Error(), "127.0.4.2:9042 is in use") {
		t.Fatalf("Open with the CQL port taken = %v, want ErrStart naming 127.0.4.2:9042", err)
	}
	oneLine(t, err)
	wantEmpty(t, dir)
}

// helperEnv makes the test binary a process that opens a local cluster
// of three nodes in the directory it names, writes and reads through it,
// prints the nodes' pids and waits to be killed.
const helperEnv = "TSBENCH_CASSANDRA_HELPER_DIR"

// TestThreeNodes starts a local cluster of three nodes at rf 3 and QUORUM
// in a second process, which writes a batch over several partitions,
// reads it back and compacts; then it kills that process with SIGKILL,
// which must take every node with it (Pdeathsig).
func TestThreeNodes(t *testing.T) {
	t.Parallel()
	if dir := os.Getenv(helperEnv); dir != "" {
		threeNodes(t, dir)
		return
	}
	needServer(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestThreeNodes$", "-test.count=1", "-test.v")
	dir := t.TempDir()
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pids []int
	var lines []string
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if f := strings.Fields(sc.Text()); len(f) > 0 && f[0] == "pids" {
			for _, p := range f[1:] {
				var pid int
				fmt.Sscan(p, &pid)
				pids = append(pids, pid)
			}
			break
		}
	}
	if len(pids) != 3 {
		t.Fatalf("the helper printed pids %v, want 3:\n%s", pids, strings.Join(lines, "\n"))
	}
	t.Log(strings.Join(lines, "\n"))
	cmd.Process.Signal(syscall.SIGKILL) // no chance to Close
	cmd.Wait()
	waitGone(t, pids, 10*time.Second)
}

// minHeap is the least heap a node takes, which the three nodes get: the
// test writes 200 small entries. nodeMemory is each node's memory cgroup,
// where this machine has them.
const (
	minHeap    = 256 << 20
	nodeMemory = 1 << 30
)

// threeNodes is TestThreeNodes in its second process.
func threeNodes(t *testing.T, dir string) {
	start := time.Now()
	o := &cassandra.Options{Address: "127.0.5.2", Heap: minHeap, JVMOptions: testJVM}
	grouped := cgroup.Available() == nil
	if grouped {
		o.NodeMemory = nodeMemory
	}
	db := enginetest.Open(t, "cassandra", dir, &engine.Options{Engine: o})
	be, _ := engine.BackendAs[*cassandra.DB](db)
	fmt.Printf("started %s in %v\n", be.Describe(), time.Since(start).Round(time.Millisecond))
	if !strings.Contains(be.Describe(), "local cluster of 3 nodes (127.0.5.2, 127.0.5.3, 127.0.5.4)") {
		t.Errorf("Describe = %q, want its three nodes", be.Describe())
	}
	if grouped {
		for _, pid := range be.PIDs() {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
			if err != nil || !strings.Contains(string(b), "-cassandra-127.0.5.") {
				t.Fatalf("node %d is not in a memory cgroup of its own: %s %v", pid, b, err)
			}
		}
	}
	b := db.NewBatch()
	for s := range 20 {
		for i := range 10 {
			b.Put(fmt.Appendf(nil, "series%02d/%02d", s, i), fmt.Appendf(nil, "%d.%d", s, i))
		}
	}
	if err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	for s := range 20 {
		it, err := db.NewIterator(engine.IterOptions{LowerBound: fmt.Appendf(nil, "series%02d", s), UpperBound: fmt.Appendf(nil, "series%02d\xff", s)})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for ok := it.First(); ok; ok = it.Next() {
			if want := fmt.Sprintf("series%02d/%02d", s, n); string(it.Key()) != want {
				t.Fatalf("series %d: entry %d is %q, want %q", s, n, it.Key(), want)
			}
			n++
		}
		if err := it.Close(); err != nil || n != 10 {
			t.Fatalf("series %d: %d entries, %v; want 10", s, n, err)
		}
	}
	start = time.Now()
	if err := db.Compact(nil, nil); err != nil {
		t.Fatal(err)
	}
	inUse, _, err := be.Sizes()
	fmt.Printf("compacted in %v; %d bytes of SSTables over the 3 nodes (%v)\n", time.Since(start).Round(time.Millisecond), inUse, err)
	m, err := engine.ReadMetrics(db)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{engine.MetricPendingCompactions, engine.MetricDroppedWrites, engine.MetricHeapBytes, engine.MetricOffHeapBytes} {
		if _, ok := m[name]; !ok {
			t.Fatalf("metrics %v lack %s", m, name)
		}
	}
	// Three heaps in use, and the compacted table's bloom filters and
	// compression metadata off heap on every node.
	if m[engine.MetricHeapBytes] < 3<<20 || m[engine.MetricOffHeapBytes] <= 0 {
		t.Fatalf("metrics %v: want heaps of some MiB and some bytes off heap", m)
	}
	fmt.Printf("metrics %v\n", m)
	start = time.Now()
	killAndRestart(t, db)
	fmt.Printf("killed node 2, wrote without it, restarted it and read it alone in %v\n", time.Since(start).Round(time.Millisecond))
	fmt.Println("pids", strings.Trim(fmt.Sprint(be.PIDs()), "[]"))
	time.Sleep(5 * time.Minute) // killed long before
	t.Fatal("not killed")
}

// killAndRestart kills node 2 of db's cluster, writes a batch at QUORUM
// through the other two, restarts it, which waits for their hints to be
// delivered, and reads the batch through node 2 alone.
func killAndRestart(t *testing.T, db engine.Engine) {
	ms, ok := engine.BackendAs[engine.Members](db)
	if !ok || ms.Members() != 3 {
		t.Fatalf("engine.Members: %v; want 3 members", ok)
	}
	if err := ms.KillMember(2); err != nil {
		t.Fatal(err)
	}
	b := db.NewBatch()
	for s := range 20 {
		b.Put(fmt.Appendf(nil, "down%02d/0", s), fmt.Appendf(nil, "%d", s))
	}
	// The first writes may go to node 2 before the others see it down:
	// they time out, and are retried.
	var err error
	for range 10 {
		if err = b.Commit(); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("commit with node 2 down: %v", err)
	}
	if err := ms.RestartMember(2); err != nil {
		t.Fatal(err)
	}
	err = ms.Alone(2, func(r engine.Reader) error {
		for s := range 20 {
			v, err := r.Get(fmt.Appendf(nil, "down%02d/0", s))
			if err != nil || string(v) != fmt.Sprint(s) {
				return fmt.Errorf("down%02d/0 through node 2 alone: %q, %v", s, v, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
