package org.tsbench.jvm;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a timed part cost the whole process, as Go's harness.Span measures
 * it (every thread: the engines' native ones, the JIT and the collector):
 * CPU and storage I/O from /proc/self, peak RSS from VmHWM after a reset
 * through clear_refs, and the collectors' count and time from their MXBeans.
 */
final class Span {
    /** /proc/PID/stat's unit (USER_HZ). */
    private static final long TICK_NS = 10_000_000L;

    private final long wall0 = System.nanoTime();
    private final long[] cpu0 = cpu();
    private final long[] io0 = io();
    private final long[] gc0 = gc();

    Span() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException e) {
            // Peak RSS then covers the whole process so far.
        }
    }

    long elapsed() {
        return System.nanoTime() - wall0;
    }

    /** The figures from the start to now, under Go's micro.Bench names. */
    Map<String, Object> end() {
        long[] cpu = cpu();
        long[] io = io();
        long[] gc = gc();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu_user_ns", (cpu[0] - cpu0[0]) * TICK_NS);
        m.put("cpu_sys_ns", (cpu[1] - cpu0[1]) * TICK_NS);
        if (io != null && io0 != null) {
            m.put("io", Map.of("read_bytes", io[0] - io0[0], "write_bytes", io[1] - io0[1],
                    "cancelled_write_bytes", io[2] - io0[2]));
        }
        m.put("peak_rss_bytes", peakRss());
        m.put("gc_count", gc[0] - gc0[0]);
        m.put("gc_ns", (gc[1] - gc0[1]) * 1_000_000L);
        return m;
    }

    private static long[] cpu() {
        try {
            String s = Files.readString(Path.of("/proc/self/stat"));
            String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
            // Fields after the name start at 3 (state); utime and stime are 14 and 15.
            return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
        } catch (IOException e) {
            return new long[2];
        }
    }

    private static long[] io() {
        try {
            long[] v = new long[3];
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                String[] kv = line.split(": ");
                switch (kv[0]) {
                    case "read_bytes" -> v[0] = Long.parseLong(kv[1].trim());
                    case "write_bytes" -> v[1] = Long.parseLong(kv[1].trim());
                    case "cancelled_write_bytes" -> v[2] = Long.parseLong(kv[1].trim());
                    default -> { }
                }
            }
            return v;
        } catch (IOException e) {
            return null;
        }
    }

    private static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").trim()) << 10;
                }
            }
        } catch (IOException e) {
            // unavailable: 0, as in Go
        }
        return 0;
    }

    /** Collections and milliseconds of collection, summed over the collectors. */
    private static long[] gc() {
        long n = 0, ms = 0;
        List<GarbageCollectorMXBean> beans = ManagementFactory.getGarbageCollectorMXBeans();
        for (GarbageCollectorMXBean b : beans) {
            n += Math.max(b.getCollectionCount(), 0);
            ms += Math.max(b.getCollectionTime(), 0);
        }
        return new long[] {n, ms};
    }
}
