package org.tsbench.jvm.workload;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.tsbench.jvm.protocol.Latency;

/**
 * What a timed part measured, in both suites: the work done (read by the
 * progress line from another thread), the engine's time, and each timed
 * call's latency.
 */
class Timings {
    final AtomicLong done = new AtomicLong();
    long time;
    private long[] lat = new long[1024];
    private int nlat;

    /** Adds one timed call of ns. */
    void add(long ns) {
        time += ns;
        if (nlat == lat.length) {
            lat = Arrays.copyOf(lat, nlat * 2);
        }
        lat[nlat++] = ns;
    }

    /** The calls' latency percentiles; null without a timed call. */
    Latency latency() {
        return nlat > 0 ? Latency.of(lat, nlat) : null;
    }
}
