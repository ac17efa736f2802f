package cassandra

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/tsbench/storage/engine/internal/logtail"
	"github.com/tsbench/storage/internal/builddir"
	"github.com/tsbench/storage/internal/cgroup"
)

// cluster is a local cluster: Cassandra nodes on consecutive loopback
// addresses, each with everything under its directory in the engine's.
type cluster struct {
	dir                   string
	java, classpath, jamm string
	// mu guards nodes' elements, which a restart replaces while a sampler
	// may read PIDs: read them with list.
	mu    sync.Mutex
	nodes []*node
}

// list returns the nodes now.
func (c *cluster) list() []*node {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*node(nil), c.nodes...)
}

// serverFiles returns the server's classpath and its jamm agent jar,
// from the classpath file that scripts/build-cassandra.sh writes.
func serverFiles(o Options) (classpath, jamm string, err error) {
	file, err := classpathFile(o)
	if err != nil {
		return "", "", err
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", "", fmt.Errorf("%w (%v)", ErrNoServer, err)
	}
	classpath = strings.TrimSpace(string(b))
	for _, jar := range strings.Split(classpath, ":") {
		if _, err := os.Stat(jar); err != nil {
			return "", "", fmt.Errorf("%w (%s names %s: %v)", ErrNoServer, file, jar, err)
		}
		if strings.HasPrefix(filepath.Base(jar), "jamm-") {
			jamm = jar
		}
	}
	if jamm == "" {
		return "", "", fmt.Errorf("%w (%s names no jamm jar, the agent Cassandra needs)", ErrNoServer, file)
	}
	return classpath, jamm, nil
}

// classpathFile is Options.Classpath, or else the file findClasspath
// finds.
func classpathFile(o Options) (string, error) {
	if o.Classpath != "" {
		return o.Classpath, nil
	}
	if file := findClasspath(); file != "" {
		return file, nil
	}
	return "", fmt.Errorf("%w (no build/cassandra/classpath beside this binary's directory, in the current one or its parents)", ErrNoServer)
}

// findClasspath looks for build/cassandra/classpath as the JVM worker's
// build/jvm is looked for (builddir.Find).
func findClasspath() string { return builddir.Find("cassandra/classpath") }

// startCluster starts l's nodes over their data in dir one after another,
// each once the one before it serves CQL: a node joining a cluster whose
// seed is not up yet waits for gossip. A failure stops the nodes started.
func startCluster(java, dir string, l layout, o Options) (*cluster, error) {
	classpath, jamm, err := serverFiles(o)
	if err != nil {
		return nil, err
	}
	for _, a := range l.Nodes {
		if err := checkPorts(a); err != nil {
			return nil, err
		}
	}
	c := &cluster{dir: dir, java: java, classpath: classpath, jamm: jamm}
	for i, a := range l.Nodes {
		jmx, err := freePort()
		if err == nil {
			cfg := nodeConfig{index: i, dir: nodeDir(dir, i), address: a, jmxPort: jmx, l: l, o: o}
			if err = cfg.write(); err == nil {
				var n *node
				if n, err = c.launch(cfg); err == nil {
					c.nodes = append(c.nodes, n)
					err = n.waitCQL(o.StartTimeout)
				}
			}
		}
		if err != nil {
			c.kill()
			return nil, err
		}
	}
	return c, nil
}

// launch starts a node with cfg, written already, and returns once its
// process has started.
func (c *cluster) launch(cfg nodeConfig) (*node, error) {
	n := &node{cfg: cfg, out: new(logtail.Tail)}
	if cfg.o.NodeMemory > 0 {
		g, err := cgroup.Create(fmt.Sprintf("cassandra-%s", cfg.address), cfg.o.NodeMemory)
		if err != nil {
			return nil, fmt.Errorf("%w: node %d: its memory cgroup (node_memory): %w", ErrStart, cfg.index, err)
		}
		n.group = g
	}
	cmd := exec.Command(c.java, cfg.args(c.classpath, c.jamm)...)
	cmd.Dir, cmd.Stdout, cmd.Stderr = cfg.dir, n.out, n.out
	if err := n.start(cmd); err != nil {
		return nil, fmt.Errorf("%w: node %d: %w", ErrStart, cfg.index, err)
	}
	return n, nil
}

// restart starts node i again, with the configuration it first had, and
// waits until it serves CQL.
func (c *cluster) restart(i int) error {
	old := c.list()[i]
	if !old.exited() {
		return fmt.Errorf("cassandra: node %d (%s) still runs: stop it before restarting it", i, old.cfg.address)
	}
	if err := checkPorts(old.cfg.address); err != nil {
		return err
	}
	n, err := c.launch(old.cfg)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.nodes[i] = n
	c.mu.Unlock()
	return n.waitCQL(old.cfg.o.StartTimeout)
}

// hosts are the nodes' addresses, for the driver.
func (c *cluster) hosts() []string {
	var hs []string
	for _, n := range c.list() {
		hs = append(hs, n.cfg.address)
	}
	return hs
}

// stop ends every node, all at once: each drains (flushes its memtables)
// on SIGTERM.
func (c *cluster) stop() error {
	nodes := c.list()
	errs := make([]error, len(nodes))
	var wg sync.WaitGroup
	for i, n := range nodes {
		wg.Go(func() { errs[i] = n.stop() })
	}
	wg.Wait()
	return errors.Join(errs...)
}

// kill ends every node at once, for an Open that failed half way.
func (c *cluster) kill() {
	nodes := c.list()
	for _, n := range nodes {
		n.cmd.Process.Kill()
	}
	for _, n := range nodes {
		<-n.done
	}
}

// exitedNode returns a node whose process has ended, nil if every node
// runs or c is nil (a given cluster).
func (c *cluster) exitedNode() *node {
	if c == nil {
		return nil
	}
	for _, n := range c.list() {
		if n.exited() {
			return n
		}
	}
	return nil
}
