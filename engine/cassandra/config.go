package cassandra

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
)

// Ports every local node listens on, each on its own loopback address.
const (
	cqlPort     = 9042
	storagePort = 7000
)

// jvm17Opens are the --add-exports and --add-opens lines of Cassandra's
// conf/jvm17-server.options, which the jar does not carry: without them
// Java 17 refuses the internals Cassandra reaches into.
var jvm17Opens = []string{
	"--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
	"--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
	"--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
	"--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
	"--add-exports", "java.sql/java.sql=ALL-UNNAMED",
	"--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
	"--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
	"--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
	"--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
	"--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
	"--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
	"--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
	"--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
	"--add-opens", "java.base/java.io=ALL-UNNAMED",
	"--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
	"--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
	"--add-opens", "java.base/java.lang=ALL-UNNAMED",
	"--add-opens", "java.base/java.util=ALL-UNNAMED",
}

// nodeConfig is what one local node is started with.
type nodeConfig struct {
	index   int
	dir     string // the node's own directory
	address string
	jmxPort int
	l       layout
	o       Options
}

// logFile is the node's log, which a failed start quotes.
func (c nodeConfig) logFile() string { return filepath.Join(c.dir, "logs", "system.log") }

// write writes the node's cassandra.yaml and logback.xml into its
// directory.
func (c nodeConfig) write() error {
	for _, sub := range []string{"data", "commitlog", "saved_caches", "hints", "cdc_raw", "logs"} {
		if err := os.MkdirAll(filepath.Join(c.dir, sub), 0o755); err != nil {
			return fmt.Errorf("cassandra: node %d: %w (choose a writable directory)", c.index, err)
		}
	}
	if err := os.WriteFile(filepath.Join(c.dir, "cassandra.yaml"), []byte(c.yaml()), 0o644); err != nil {
		return fmt.Errorf("cassandra: node %d: %w", c.index, err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, "logback.xml"), []byte(c.logback()), 0o644); err != nil {
		return fmt.Errorf("cassandra: node %d: %w", c.index, err)
	}
	return nil
}

// yaml is the node's cassandra.yaml: every directory under the node's,
// its own loopback address with the common ports, the first node as the
// seed.
func (c nodeConfig) yaml() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("cluster_name: '%s'", c.l.ClusterName)
	w("partitioner: %s", partitioners[c.l.Partitioner])
	if c.l.Partitioner == "byte_ordered" {
		// One token per node, spread over the first byte, since the
		// partitioner cannot pick balanced ones.
		w("num_tokens: 1")
		w("initial_token: %s", orderedToken(c.index, len(c.l.Nodes)))
	} else {
		// The tokens are given, not allocated: a node allocating its
		// tokens first waits ring_delay for the ring's, 3 s of every
		// start. Spread evenly and interleaved over the nodes, they are
		// what the allocator aims for on a cluster of fixed size: every
		// node owns as much of the ring.
		w("num_tokens: %d", vnodes)
		w("initial_token: %s", murmur3Tokens(c.index, len(c.l.Nodes)))
	}
	w("data_file_directories:\n    - %s", filepath.Join(c.dir, "data"))
	w("commitlog_directory: %s", filepath.Join(c.dir, "commitlog"))
	w("saved_caches_directory: %s", filepath.Join(c.dir, "saved_caches"))
	w("hints_directory: %s", filepath.Join(c.dir, "hints"))
	w("cdc_raw_directory: %s", filepath.Join(c.dir, "cdc_raw"))
	switch c.o.CommitlogSync {
	case "batch":
		w("commitlog_sync: batch")
	case "group":
		w("commitlog_sync: group")
		w("commitlog_sync_group_window: 15ms")
	default:
		w("commitlog_sync: periodic")
		w("commitlog_sync_period: 10000ms")
	}
	w("seed_provider:\n    - class_name: org.apache.cassandra.locator.SimpleSeedProvider\n      parameters:\n          - seeds: \"%s:%d\"", c.l.Nodes[0], storagePort)
	w("listen_address: %s", c.address)
	w("rpc_address: %s", c.address)
	w("storage_port: %d", storagePort)
	w("native_transport_port: %d", cqlPort)
	w("start_native_transport: true")
	w("endpoint_snitch: SimpleSnitch")
	// vm.max_map_count is 65530 on a stock kernel, below what mapping
	// every data file needs: only the indexes are mapped.
	w("disk_access_mode: mmap_index_only")
	// Dropped tables and truncations are not kept as snapshots: a benchmark
	// directory would keep every one.
	w("auto_snapshot: false")
	if c.index > 0 {
		w("auto_bootstrap: false") // an empty cluster has nothing to stream
	}
	return b.String()
}

// vnodes are the tokens of each node under the Murmur3 partitioner.
const vnodes = 16

// murmur3Tokens are node i's of n nodes' initial tokens under the Murmur3
// partitioner, comma-separated: the ring, -2^63 to 2^63-1, cut into
// vnodes*n equal parts, node i taking the middle of parts i, i+n,
// i+2n... (the middle: -2^63 is the partitioner's minimum token, which
// no node may take).
func murmur3Tokens(i, n int) string {
	step := new(big.Int).Lsh(big.NewInt(1), 64)
	step.Div(step, big.NewInt(int64(vnodes*n)))
	first := new(big.Int).Neg(new(big.Int).Lsh(big.NewInt(1), 63))
	first.Add(first, new(big.Int).Rsh(step, 1))
	tokens := make([]string, vnodes)
	for j := range tokens {
		t := new(big.Int).Mul(step, big.NewInt(int64(j*n+i)))
		tokens[j] = t.Add(t, first).String()
	}
	return strings.Join(tokens, ",")
}

// orderedToken is node i's initial token of n under the byte-ordered
// partitioner: a hex key, the first byte spread evenly.
func orderedToken(i, n int) string {
	if i == 0 {
		return "00"
	}
	t := new(big.Int).Lsh(big.NewInt(int64(i)), 8)
	t.Div(t, big.NewInt(int64(n)))
	return fmt.Sprintf("%02x", t.Int64())
}

// logback is the node's logback.xml: everything at INFO to its log file.
// The date pattern has no comma, which logback would read as a time zone.
func (c nodeConfig) logback() string {
	return fmt.Sprintf(`<configuration scan="false">
  <appender name="FILE" class="ch.qos.logback.core.FileAppender">
    <file>%s</file>
    <encoder><pattern>%%date{HH:mm:ss.SSS} %%-5level [%%thread] %%logger{20} %%msg%%n</pattern></encoder>
  </appender>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
`, c.logFile())
}

// args are the node's java arguments: the server in the foreground,
// its heap fixed, exiting on an OutOfMemoryError rather than limping on.
func (c nodeConfig) args(classpath string, jamm string) []string {
	heap := fmt.Sprintf("%dm", c.o.Heap>>20)
	args := []string{
		"-Xms" + heap, "-Xmx" + heap,
		"-XX:+UseG1GC", "-XX:+ExitOnOutOfMemoryError",
		"-Djava.net.preferIPv4Stack=true",
		"-Djdk.attach.allowAttachSelf=true",
		"-Dio.netty.tryReflectionSetAccessible=true",
	}
	args = append(args, jvm17Opens...)
	// The user's flags come after the engine's: a later flag wins.
	args = append(args, c.o.JVMOptions...)
	args = append(args,
		"-javaagent:"+jamm,
		"-Dcassandra.config=file://"+filepath.Join(c.dir, "cassandra.yaml"),
		"-Dcassandra.storagedir="+c.dir,
		"-Dcassandra.logdir="+filepath.Join(c.dir, "logs"),
		"-Dlogback.configurationFile="+filepath.Join(c.dir, "logback.xml"),
		"-Dcassandra-foreground=yes",
		fmt.Sprintf("-Dcassandra.jmx.local.port=%d", c.jmxPort),
		// A local cluster's nodes need not wait for gossip to settle.
		"-Dcassandra.skip_wait_for_gossip_to_settle=0",
		"-Dcassandra.ring_delay_ms=3000",
		"-Dcassandra.consistent.rangemovement=false",
		"-cp", classpath,
		"org.apache.cassandra.service.CassandraDaemon",
	)
	return args
}
