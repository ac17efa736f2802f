package cassandra_test

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	gocql "github.com/apache/cassandra-gocql-driver/v2"

	"github.com/tsbench/storage/engine"
	"github.com/tsbench/storage/engine/cassandra"
	"github.com/tsbench/storage/engine/enginetest"
)

// testHeap is the nodes' heap in tests: enough for the suite's data.
const testHeap = 512 << 20

// testJVM are the nodes' extra java flags in tests: C1 alone, whose
// compiled code is slower but which spends half the CPU time of C1 and
// C2 on a node that lives a minute; and no 2 s pause after a stopping
// node announces it, since its peers, if any, are stopping too.
var testJVM = []string{"-XX:TieredStopAtLevel=1", "-Dcassandra.shutdown_announce_in_ms=0"}

// needServer skips the test without java or the server's jars.
func needServer(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java: install openjdk-17-jre-headless (make setup does)")
	}
	if cassandra.Version() == "" {
		t.Skip("the Cassandra server's jars are not resolved: run scripts/build-cassandra.sh (make setup does)")
	}
}

// shared starts a local one-node cluster with partitioner from address
// for the whole test and returns the options of engines on it as a
// given cluster, each of which keeps its data in a keyspace of its own:
// one start (5 to 10 s) instead of one per subtest. The test binary's
// children (the suite's second processes) find the node's address and
// JMX address in env and use the parent's cluster rather than start
// their own; child is true there.
func shared(t *testing.T, env, partitioner, address string) (_ *engine.Options, child bool) {
	t.Helper()
	if v := os.Getenv(env); v != "" {
		host, jmx, _ := strings.Cut(v, " ")
		return given(host, jmx), true
	}
	needServer(t)
	start := time.Now()
	db, err := cassandra.Open(t.TempDir(), engine.Options{Engine: &cassandra.Options{
		Nodes: 1, Address: address, Partitioner: partitioner, Heap: testHeap, JVMOptions: testJVM,
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("started %s in %v", db.Describe(), time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	// os.Setenv, since a parallel test may not call t.Setenv: each test
	// has a variable of its own, and its children inherit it.
	jmx := db.JMX()[0]
	os.Setenv(env, address+" "+jmx)
	t.Cleanup(func() { os.Unsetenv(env) })
	return given(address, jmx), false
}

// given are options of an engine on the shared cluster's node at host,
// whose JMX listens at jmx.
func given(host, jmx string) *engine.Options {
	return &engine.Options{Engine: &cassandra.Options{Hosts: []string{host}, JMX: []string{jmx}, RF: 1, Consistency: "ONE"}}
}

// TestEngine runs the acceptance suite in the default layout, ordered
// within a prefix of 8 bytes: through enginetest's prefix view, with the
// raw engine's refusals checked on their own. It runs beside
// TestByteOrdered, each on a node of its own.
func TestEngine(t *testing.T) {
	t.Parallel()
	opts, child := shared(t, "TSBENCH_CASSANDRA_MURMUR3", "murmur3", "127.0.1.2")
	runSuite(t, opts)
	if child {
		return // the suite's second process: it did what the parent asked
	}
	t.Run("Expiry", func(t *testing.T) { enginetest.RunExpiry(t, "cassandra", opts) })
	t.Run("CompactWithoutJMX", func(t *testing.T) {
		// Nothing listens on port 1: the probe's error comes back.
		o := *opts.Engine.(*cassandra.Options)
		o.JMX = []string{"127.0.0.1:1"}
		db := enginetest.Open(t, "cassandra", t.TempDir(), &engine.Options{Engine: &o})
		err := db.Compact(nil, nil)
		if !errors.Is(err, cassandra.ErrJMX) || !strings.Contains(err.Error(), "cannot connect to JMX at 127.0.0.1:1") {
			t.Fatalf("Compact with no JMX at 127.0.0.1:1 = %v, want ErrJMX saying it cannot connect", err)
		}
		oneLine(t, err)
	})
	t.Run("OtherLayout", func(t *testing.T) {
		o := opts.Engine.(*cassandra.Options)
		cc := gocql.NewCluster(o.Hosts...)
		s, err := cc.CreateSession()
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		for _, q := range []string{
			"CREATE KEYSPACE IF NOT EXISTS tsbench_other_columns WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
			"CREATE TABLE IF NOT EXISTS tsbench_other_columns.kv (p blob, c blob, v text, PRIMARY KEY ((p), c))",
			"CREATE KEYSPACE IF NOT EXISTS tsbench_other_rf WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}",
		} {
			if err := s.Query(q).Exec(); err != nil {
				t.Fatal(err)
			}
		}
		for ks, want := range map[string]string{"tsbench_other_columns": "has columns", "tsbench_other_rf": "replicates"} {
			dir := t.TempDir()
			if err := cassandra.UseKeyspace(dir, o.Hosts, ks); err != nil {
				t.Fatal(err)
			}
			_, err := engine.Open("cassandra", dir, opts)
			if !errors.Is(err, cassandra.ErrLayout) || !strings.Contains(err.Error(), want) {
				t.Errorf("Open over keyspace %s = %v, want ErrLayout saying %q", ks, err, want)
			}
			oneLine(t, err)
		}
	})
}

// TestByteOrdered runs the whole acceptance suite under the byte-ordered
// partitioner, where the order is global.
func TestByteOrdered(t *testing.T) {
	t.Parallel()
	opts, _ := shared(t, "TSBENCH_CASSANDRA_BYTE_ORDERED", "byte_ordered", "127.0.2.2")
	runSuite(t, opts)
}

func TestConfig(t *testing.T) { enginetest.Config(t, "cassandra") }
