package org.tsbench.jvm.workload;

/**
 * The time-series key of Go's engine/tskey: series id, timestamp and
 * sequence number as three big-endian 64-bit integers.
 */
public final class TsKey {
    public static final int SIZE = 24;
    /** Go's points.Epoch: 2014-06-20T00:00:00Z in nanoseconds. */
    static final long EPOCH = 1403222400L * 1_000_000_000L;
    /** Go's points.Interval: 1 ms. */
    static final long INTERVAL = 1_000_000L;

    private TsKey() {
    }

    static void put(byte[] dst, int off, long series, long ts, long seq) {
        putLong(dst, off, series);
        putLong(dst, off + 8, ts);
        putLong(dst, off + 16, seq);
    }

    private static void putLong(byte[] dst, int off, long v) {
        for (int k = 7; k >= 0; k--) {
            dst[off + k] = (byte) v;
            v >>>= 8;
        }
    }
}
