package org.tsbench.cassandra;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.lang.reflect.UndeclaredThrowableException;
import java.rmi.RemoteException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import javax.management.InstanceNotFoundException;
import javax.management.JMX;
import javax.management.MBeanServerConnection;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import org.apache.cassandra.service.StorageServiceMBean;

/**
 * Probe flushes and compacts tables of Cassandra nodes over JMX for
 * engine/cassandra's Compact, as nodetool flush and nodetool compact do
 * (both call these StorageService operations), and reads the node metrics
 * its Metrics reports, in one JVM that lives as long as the engines using
 * it: a nodetool run starts a JVM for every command, about a second each.
 *
 * <p>Requests are lines on stdin, {@code ID OP HOST:PORT KEYSPACE TABLE}
 * with OP {@code flush}, {@code compact}, {@code repair}, {@code metrics} or
 * {@code hints};
 * each is answered by one line on stdout, {@code ID ok} ({@code ID ok
 * NAME=VALUE ...} for metrics and hints) or {@code ID error MESSAGE}. Requests run
 * concurrently (one compaction per node at once), so answers come in any
 * order. The connection to each node is kept. The end of stdin (the
 * engine closed, or its process died) ends the JVM.
 */
public final class Probe {
    private static final ObjectName STORAGE_SERVICE = storageService();

    /** The connections made, by HOST:PORT. */
    private static final Map<String, Node> nodes = new ConcurrentHashMap<>();

    /** Answers, the real stdout: System.out is pointed at stderr so that nothing printed by the way mixes with them. */
    private static final PrintStream answers =
            new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    private record Node(JMXConnector connector, MBeanServerConnection server, StorageServiceMBean service) {}

    /** The table gauges whose sum is the table's off-heap memory, as nodetool tablestats adds them up. */
    private static final String[] OFF_HEAP = {
        "MemtableOffHeapSize", "BloomFilterOffHeapMemoryUsed", "IndexSummaryOffHeapMemoryUsed", "CompressionMetadataOffHeapMemoryUsed",
    };

    private Probe() {}

    public static void main(String[] args) throws IOException {
        System.setOut(System.err);
        ExecutorService pool = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "probe");
            t.setDaemon(true);
            return t;
        });
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            if (f.length != 5) {
                answer(f[0], "error malformed request: " + line);
                continue;
            }
            pool.execute(() -> answer(f[0], run(f[1], f[2], f[3], f[4])));
        }
        // The requests still running are the engine's no longer.
        System.exit(0);
    }

    private static void answer(String id, String result) {
        synchronized (answers) {
            answers.println(id + " " + result);
        }
    }

    /** run does one request and returns its answer: ok or error with why, on one line. */
    private static String run(String op, String address, String keyspace, String table) {
        // A connection kept from before fails once its node has stopped
        // (a restarted node listens on that port again): it is dropped
        // and made again, once.
        for (int attempt = 0; ; attempt++) {
            Node n;
            try {
                n = connect(address);
            } catch (IOException | RuntimeException e) {
                return "error cannot connect to JMX at " + address + ": " + oneLine(e);
            }
            try {
                switch (op) {
                    case "flush" -> n.service().forceKeyspaceFlush(keyspace, table);
                    case "compact" -> n.service().forceKeyspaceCompaction(false, keyspace, table);
                    case "metrics" -> {
                        return "ok " + metrics(n.server(), keyspace, table);
                    }
                    case "repair" -> {
                        return repair(n.service(), keyspace, table);
                    }
                    case "hints" -> {
                        return "ok " + hints(n.server());
                    }
                    default -> {
                        return "error unknown operation " + op;
                    }
                }
                return "ok";
            } catch (Exception e) {
                // A proxy's call on a broken connection fails with the
                // RemoteException or IOException wrapped, since the
                // MBean's methods do not declare them.
                Throwable c = e instanceof UndeclaredThrowableException ? e.getCause() : e;
                if (!(c instanceof RemoteException || c instanceof IOException) || attempt > 0) {
                    return "error " + op + " on " + address + ": " + oneLine(e);
                }
                drop(address, n);
            }
        }
    }

    private static Node connect(String address) throws IOException {
        Node n = nodes.get(address);
        if (n != null) {
            return n;
        }
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IOException("not HOST:PORT");
        }
        JMXServiceURL url = new JMXServiceURL(
                "service:jmx:rmi:///jndi/rmi://" + address.substring(0, colon) + ":" + address.substring(colon + 1) + "/jmxrmi");
        JMXConnector c = JMXConnectorFactory.connect(url, null);
        MBeanServerConnection server = c.getMBeanServerConnection();
        n = new Node(c, server, JMX.newMBeanProxy(server, STORAGE_SERVICE, StorageServiceMBean.class));
        Node before = nodes.putIfAbsent(address, n);
        if (before != null) {
            c.close();
            return before;
        }
        return n;
    }

    /**
     * metrics reads what engine/cassandra's Metrics reports of one node:
     * its compactions pending (nodetool compactionstats), the writes it
     * dropped for being late (nodetool tpstats' dropped MUTATION_REQ), its
     * JVM heap in use, and the table's off-heap memory (nodetool
     * tablestats' "Off heap memory used").
     */
    private static String metrics(MBeanServerConnection s, String keyspace, String table) throws Exception {
        long pending = ((Number) s.getAttribute(name("org.apache.cassandra.metrics:type=Compaction,name=PendingTasks"), "Value")).longValue();
        long dropped = 0;
        for (ObjectName o : s.queryNames(name("org.apache.cassandra.metrics:type=DroppedMessage,name=Dropped,*"), null)) {
            if ("MUTATION_REQ".equals(o.getKeyProperty("scope"))) {
                dropped += ((Number) s.getAttribute(o, "Count")).longValue();
            }
        }
        long heap = (Long) ((CompositeData) s.getAttribute(name("java.lang:type=Memory"), "HeapMemoryUsage")).get("used");
        long offHeap = 0;
        for (String gauge : OFF_HEAP) {
            try {
                ObjectName o = name("org.apache.cassandra.metrics:type=Table,keyspace=" + keyspace + ",scope=" + table + ",name=" + gauge);
                offHeap += ((Number) s.getAttribute(o, "Value")).longValue();
            } catch (InstanceNotFoundException e) {
                // A gauge of a component this table's SSTable format lacks.
            }
        }
        return "pending_compactions=" + pending + " dropped_writes=" + dropped + " heap_bytes=" + heap + " off_heap_bytes=" + offHeap;
    }

    /**
     * repair runs a full repair of the table on the node, over every range
     * it replicates, as nodetool repair -full KEYSPACE TABLE does, and
     * waits until it has ended. Parallel, nodetool's default: the JMX
     * call's own default, sequential, snapshots the table on every
     * replica first, which failed on a loaded machine.
     */
    private static String repair(StorageServiceMBean s, String keyspace, String table) throws InterruptedException {
        int cmd = s.repairAsync(keyspace, Map.of("incremental", "false", "parallelism", "parallel", "columnFamilies", table));
        if (cmd <= 0) {
            return "ok"; // nothing to repair: a keyspace with one replica
        }
        for (;;) {
            List<String> status = s.getParentRepairStatus(cmd);
            if (status != null && !status.isEmpty()) {
                switch (status.get(0)) {
                    case "COMPLETED" -> {
                        return "ok";
                    }
                    case "FAILED" -> {
                        return "error repair failed: " + String.join(" ", status.subList(1, status.size())).replaceAll("\\s+", " ");
                    }
                    default -> {
                        // IN_PROGRESS
                    }
                }
            }
            Thread.sleep(100);
        }
    }

    /**
     * hints counts the hint files the node keeps for other nodes, not
     * delivered yet (nodetool listpendinghints): hints it has buffered in
     * memory are written to a file within hints_flush_period.
     */
    @SuppressWarnings("unchecked")
    private static String hints(MBeanServerConnection s) throws Exception {
        long files = 0;
        for (Map<String, String> target : (List<Map<String, String>>) s.getAttribute(name("org.apache.cassandra.hints:type=HintsService"), "PendingHints")) {
            files += Long.parseLong(target.getOrDefault("total_files", "0"));
        }
        return "pending_hint_files=" + files;
    }

    private static ObjectName name(String name) throws MalformedObjectNameException {
        return new ObjectName(name);
    }

    private static void drop(String address, Node n) {
        if (nodes.remove(address, n)) {
            try {
                n.connector().close();
            } catch (IOException ignored) {
                // The connection is broken already.
            }
        }
    }

    /** oneLine is e's message and its causes', on one line. */
    private static String oneLine(Throwable e) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = e; c != null && b.length() < 2000; c = c.getCause()) {
            if (b.length() > 0) {
                b.append(": ");
            }
            b.append(c.getClass().getSimpleName());
            if (c.getMessage() != null) {
                b.append(" ").append(c.getMessage());
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return b.toString().replaceAll("\\s+", " ");
    }

    private static ObjectName storageService() {
        try {
            return new ObjectName("org.apache.cassandra.db:type=StorageService");
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }
}
