package cassandra

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsbench/storage/engine/internal/logtail"
)

// The probe is the JVM that Compact sends its flush and compact requests
// to: scripts/cassandra/Probe.java, which scripts/build-cassandra.sh
// compiles into the directory probeDir beside the classpath file. One
// runs per java and classpath while an engine that may compact is open in
// this process, started by the first Compact: a nodetool run would start
// a JVM for each command, a second or two each.
const (
	probeDir   = "probe"
	probeMain  = "org.tsbench.cassandra.Probe"
	probeClass = "org/tsbench/cassandra/Probe.class"
)

// probeJVM are the probe's JVM flags: a small client that starts fast,
// since it only sends JMX requests and waits for their answers.
var probeJVM = []string{"-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-XX:-UsePerfData"}

// probeStopTimeout is how long the probe may take to exit once its stdin
// is closed before it is killed.
const probeStopTimeout = 5 * time.Second

// probes are the running probes and the engines that may use them.
var probes struct {
	sync.Mutex
	users   int               // open engines that may compact
	running map[string]*probe // by java and classpath
}

// useProbe counts an opened engine that may compact, until it calls
// releaseProbe: the probes run while one is open.
func useProbe() {
	probes.Lock()
	probes.users++
	probes.Unlock()
}

// releaseProbe ends an engine's use of the probes; the last stops them.
func releaseProbe() {
	probes.Lock()
	probes.users--
	var stop []*probe
	if probes.users == 0 {
		for _, p := range probes.running {
			stop = append(stop, p)
		}
		probes.running = nil
	}
	probes.Unlock()
	for _, p := range stop {
		p.stop()
	}
}

// startedProbe returns the probe running java with classpath, started
// now unless it runs already.
func startedProbe(java, classpath string) (*probe, error) {
	probes.Lock()
	defer probes.Unlock()
	key := java + "\x00" + classpath
	if p := probes.running[key]; p != nil && !p.exited() {
		return p, nil
	}
	p, err := startProbe(java, classpath)
	if err != nil {
		return nil, err
	}
	if probes.running == nil {
		probes.running = map[string]*probe{}
	}
	probes.running[key] = p
	return p, nil
}

// probe is a running probe JVM.
type probe struct {
	process
	in     io.WriteCloser
	stderr *logtail.Tail
	gone   chan struct{} // closed once its answers have all been read and it has exited

	mu      sync.Mutex
	next    uint64
	waiting map[uint64]chan string // by request id: where its answer goes
}

// startProbe starts a probe JVM. Its answers come through a pipe of its
// own rather than exec's, which Wait would close under the reader.
func startProbe(java, classpath string) (*probe, error) {
	p := &probe{stderr: new(logtail.Tail), gone: make(chan struct{}), waiting: map[uint64]chan string{}}
	cmd := exec.Command(java, append(append([]string{}, probeJVM...), "-cp", classpath, probeMain)...)
	cmd.Stderr = p.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("%w: start the probe: %w", ErrJMX, err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w: start the probe: %w", ErrJMX, err)
	}
	cmd.Stdout = w
	err = p.start(cmd)
	w.Close()
	if err != nil {
		r.Close()
		in.Close()
		return nil, fmt.Errorf("%w: start the probe: %w", ErrJMX, err)
	}
	p.in = in
	go p.read(r)
	return p, nil
}

// read hands each answer to the request waiting for it, until the probe
// exits.
func (p *probe) read(r *os.File) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		id, answer, _ := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseUint(id, 10, 64)
		if err != nil {
			continue
		}
		p.mu.Lock()
		if c := p.waiting[n]; c != nil {
			c <- answer // buffered: never blocks
			delete(p.waiting, n)
		}
		p.mu.Unlock()
	}
	<-p.done
	close(p.gone)
}

// run asks the probe to do op ("flush", "compact" or "metrics") on
// keyspace.table of the node whose JMX listens at addr, and waits for the
// answer, at most timeout: what follows its "ok", if anything.
func (p *probe) run(op, addr, keyspace, table string, timeout time.Duration) (string, error) {
	c := make(chan string, 1)
	p.mu.Lock()
	p.next++
	id := p.next
	p.waiting[id] = c
	_, err := fmt.Fprintf(p.in, "%d %s %s %s %s\n", id, op, addr, keyspace, table)
	p.mu.Unlock()
	forget := func() {
		p.mu.Lock()
		delete(p.waiting, id)
		p.mu.Unlock()
	}
	if err != nil {
		forget()
		return "", fmt.Errorf("%w: %s on the node at %s: the probe does not take requests (%v); %s", ErrJMX, op, addr, err, p.quote())
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var answer string
	select {
	case answer = <-c:
	case <-p.gone:
		select {
		case answer = <-c:
		default:
			return "", fmt.Errorf("%w: %s on the node at %s: the probe exited (%v); %s", ErrJMX, op, addr, p.err, p.quote())
		}
	case <-ctx.Done():
		forget()
		// The node goes on with the request; only this wait ends.
		return "", fmt.Errorf("%w: %s on the node at %s: no answer within %v: %w", ErrJMX, op, addr, timeout, ErrTimeout)
	}
	rest, ok := strings.CutPrefix(answer, "ok")
	if !ok {
		return "", fmt.Errorf("%w: %s on the node at %s: %s", ErrJMX, op, addr, strings.TrimPrefix(answer, "error "))
	}
	return strings.TrimSpace(rest), nil
}

// quote returns the end of the probe's stderr on one line.
func (p *probe) quote() string {
	lines := p.stderr.Lines(logLines)
	if len(lines) == 0 {
		return "it printed nothing"
	}
	return "it printed: " + strings.Join(lines, " | ")
}

// stop closes the probe's stdin, which ends it, and kills it if it has
// not exited within probeStopTimeout.
func (p *probe) stop() {
	p.in.Close()
	select {
	case <-p.done:
	case <-time.After(probeStopTimeout):
		p.kill()
	}
}

// probeClasspath returns the probe's classpath: its classes, beside the
// classpath file, and the server's jars, for the MBean interface and the
// exceptions a node may answer with.
func probeClasspath(o Options) (string, error) {
	file, err := classpathFile(o)
	if err != nil {
		return "", err
	}
	classpath, _, err := serverFiles(o)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(filepath.Dir(file), probeDir)
	if _, err := os.Stat(filepath.Join(dir, probeClass)); err != nil {
		return "", fmt.Errorf("%w (no compiled probe, which Compact runs: %v)", ErrNoServer, err)
	}
	return dir + string(os.PathListSeparator) + classpath, nil
}
