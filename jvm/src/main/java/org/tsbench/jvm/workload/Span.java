package org.tsbench.jvm.workload;

import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.tsbench.jvm.protocol.Cost;
import org.tsbench.jvm.protocol.Jvm;

/**
 * What a timed part cost the whole process, as Go's harness.Span measures
 * it (every thread: the engines' native ones, the JIT and the collector):
 * CPU and storage I/O from /proc/self, peak RSS from VmHWM after a reset
 * through clear_refs, memory by kind sampled while it runs (Go's
 * measure.MemoryPeaks), and the collectors' count and time from their MXBeans.
 */
public final class Span {
    /** /proc/PID/stat's unit (USER_HZ). */
    private static final long TICK_NS = 10_000_000L;
    /** Go's harness.DefaultSamplePeriod. */
    private static final long DEFAULT_SAMPLE_NS = 200_000_000L;

    /** The job's memory_sample_ns: 0 for DEFAULT_SAMPLE_NS, negative for no sampling. */
    private static volatile long samplePeriod;

    private final long wall0 = System.nanoTime();
    private final long[] cpu0 = cpu();
    private final long[] io0 = io();
    private final long[] gc0 = gc();
    /** Null when the job turned sampling off. */
    private final MemorySampler memory;
    /** The collectors' figures at end(). */
    private long[] gc1;

    Span() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
        } catch (IOException e) {
            // Peak RSS then covers the whole process so far.
        }
        long period = samplePeriod == 0 ? DEFAULT_SAMPLE_NS : samplePeriod;
        memory = period > 0 ? new MemorySampler(period) : null;
    }

    /** Sets how often the spans started from now on sample memory by kind, as Go's harness.SetSamplePeriod. */
    public static void samplePeriod(long ns) {
        samplePeriod = ns;
    }

    long elapsed() {
        return System.nanoTime() - wall0;
    }

    /** What the process spent from the start to now; jvm() then has the collections. */
    Cost end() {
        long[] cpu = cpu();
        long[] io = io();
        gc1 = gc();
        Cost.MemoryPeaks mem = memory != null ? memory.stop() : null;
        Cost.Io traffic = io != null && io0 != null ? new Cost.Io(io[0] - io0[0], io[1] - io0[1], io[2] - io0[2]) : null;
        return new Cost((cpu[0] - cpu0[0]) * TICK_NS, (cpu[1] - cpu0[1]) * TICK_NS, traffic, peakRss(), mem);
    }

    /** The collections from the start to end(), after a warmup pass of warmupOps operations. */
    Jvm jvm(long warmupOps) {
        return new Jvm(warmupOps, gc1[0] - gc0[0], (gc1[1] - gc0[1]) * 1_000_000L);
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

    /**
     * Samples /proc/self/status's RssAnon, RssFile and RssShmem (what VmHWM
     * lumps together) on a daemon thread, keeping each one's peak apart, as
     * Go's harness sampler does: one sample at the start, one every period,
     * one at stop. One small read into a reused buffer per sample. Only one
     * thread samples at a time (the thread runs between start and join), so
     * the fields need no lock.
     */
    static final class MemorySampler {
        private static final byte[][] KINDS = {"RssAnon:".getBytes(StandardCharsets.US_ASCII),
            "RssFile:".getBytes(StandardCharsets.US_ASCII), "RssShmem:".getBytes(StandardCharsets.US_ASCII)};

        private final byte[] buf = new byte[8192];
        private final long[] kinds = new long[KINDS.length];
        private final long[] peaks = new long[KINDS.length];
        private int samples;
        private final Thread thread;

        MemorySampler(long periodNs) {
            sample();
            thread = new Thread(() -> {
                try {
                    while (true) {
                        Thread.sleep(periodNs / 1_000_000, (int) (periodNs % 1_000_000));
                        sample();
                    }
                } catch (InterruptedException e) {
                    // the span ended
                }
            }, "memory");
            thread.setDaemon(true);
            thread.start();
        }

        /** Ends the sampling with a last sample: the peaks, null without a sample. */
        Cost.MemoryPeaks stop() {
            thread.interrupt();
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    // The thread must be done before the peaks are read: wait on, and pass the interrupt on.
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            sample();
            if (samples == 0) {
                return null;
            }
            // The Go runtime's share of private memory: none in a JVM. Go's field has no omitempty.
            return new Cost.MemoryPeaks(peaks[0], peaks[1], peaks[2], 0, samples);
        }

        private void sample() {
            int n = 0;
            try (FileInputStream in = new FileInputStream("/proc/self/status")) {
                for (int r; n < buf.length && (r = in.read(buf, n, buf.length - n)) > 0;) {
                    n += r;
                }
            } catch (IOException e) {
                return; // not counted: without a sample the span has no memory
            }
            if (parse(buf, n, kinds)) {
                for (int i = 0; i < peaks.length; i++) {
                    peaks[i] = Math.max(peaks[i], kinds[i]);
                }
                samples++;
            }
        }

        /**
         * Reads RssAnon, RssFile and RssShmem, in bytes, from the first n bytes
         * of status into kinds; false if one is missing (a kernel before 4.5).
         */
        static boolean parse(byte[] status, int n, long[] kinds) {
            int found = 0;
            for (int at = 0; at < n; at++) {
                for (int k = 0; k < KINDS.length; k++) {
                    if (startsWith(status, at, n, KINDS[k])) {
                        long kb = 0;
                        int i = at + KINDS[k].length;
                        while (i < n && (status[i] == ' ' || status[i] == '\t')) {
                            i++;
                        }
                        int digits = i;
                        for (; i < n && status[i] >= '0' && status[i] <= '9'; i++) {
                            kb = kb * 10 + (status[i] - '0');
                        }
                        if (i > digits) {
                            kinds[k] = kb << 10;
                            found |= 1 << k;
                        }
                        break;
                    }
                }
                while (at < n && status[at] != '\n') {
                    at++;
                }
            }
            return found == (1 << KINDS.length) - 1;
        }

        private static boolean startsWith(byte[] b, int at, int n, byte[] prefix) {
            if (n - at < prefix.length) {
                return false;
            }
            for (int i = 0; i < prefix.length; i++) {
                if (b[at + i] != prefix[i]) {
                    return false;
                }
            }
            return true;
        }
    }
}
