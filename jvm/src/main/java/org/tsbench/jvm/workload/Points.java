package org.tsbench.jvm.workload;

/**
 * The time-series workload's points, as Go's workload/points.Generator
 * makes them: point i is series i mod series, timestamp EPOCH + i*INTERVAL,
 * sequence i+1, and a value that is output seq of a splitmix64 seeded with
 * seed, stored as a protobuf message with one int64 field (number 5).
 */
record Points(long series, long seed) {
    /** The value's tag: field 5, varint. */
    static final int TAG = 5 << 3;

    long seriesOf(long i) {
        return i % series;
    }

    static long timestamp(long i) {
        return TsKey.EPOCH + i * TsKey.INTERVAL;
    }

    long value(long seq) {
        long z = seed + seq * 0x9e3779b97f4a7c15L;
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Writes point i's key at dst[off]. */
    void key(byte[] dst, int off, long i) {
        TsKey.put(dst, off, seriesOf(i), timestamp(i), i + 1);
    }

    /** Writes v's encoding at dst[off] and returns its length. */
    static int putValue(byte[] dst, int off, long v) {
        dst[off] = (byte) TAG;
        int n = 1;
        while ((v & ~0x7fL) != 0) {
            dst[off + n++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        dst[off + n++] = (byte) v;
        return n;
    }

    static int valueSize(long v) {
        int n = 2;
        for (v >>>= 7; v != 0; v >>>= 7) {
            n++;
        }
        return n;
    }

    /**
     * The int64 field of an encoded value, as Go's points.ParseValue reads
     * it: other fields are skipped; a malformed message or one without the
     * field throws.
     */
    static long parseValue(byte[] b, int off, int len) {
        int end = off + len;
        long[] r = new long[2]; // value, position
        boolean found = false;
        long v = 0;
        int p = off;
        while (p < end) {
            p = varint(b, p, end, r);
            long tag = r[0];
            int num = (int) (tag >>> 3), type = (int) (tag & 7);
            switch (type) {
                case 0 -> {
                    p = varint(b, p, end, r);
                    if (num == 5) {
                        v = r[0];
                        found = true;
                    }
                }
                case 1 -> p += 8;
                case 2 -> {
                    p = varint(b, p, end, r);
                    p += (int) r[0];
                }
                case 5 -> p += 4;
                default -> throw new IllegalArgumentException("wire type " + type);
            }
            if (num == 5 && type != 0) {
                throw new IllegalArgumentException("int64_value has wire type " + type + ", want varint");
            }
            if (p > end) {
                throw new IllegalArgumentException("truncated message");
            }
        }
        if (!found) {
            throw new IllegalArgumentException("no int64_value");
        }
        return v;
    }

    private static int varint(byte[] b, int p, int end, long[] r) {
        long x = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (p >= end) {
                throw new IllegalArgumentException("truncated varint");
            }
            int c = b[p++] & 0xff;
            x |= (long) (c & 0x7f) << shift;
            if (c < 0x80) {
                r[0] = x;
                return p;
            }
        }
        throw new IllegalArgumentException("varint overflow");
    }

    /** How many of the points with index in [lo, hi) belong to series s. */
    long count(long lo, long hi, long s) {
        return hi <= lo ? 0 : below(hi, s) - below(lo, s);
    }

    private long below(long x, long s) {
        long n = x / series;
        return s < x % series ? n + 1 : n;
    }

    /** The smallest index at or after lo of a point of series s. */
    long first(long lo, long s) {
        return lo + ((s - lo % series) % series + series) % series;
    }

    /** The key and value bytes of the points with index in [lo, hi). */
    long logicalBytes(long lo, long hi) {
        long n = 0;
        for (long i = lo; i < hi; i++) {
            n += TsKey.SIZE + valueSize(value(i + 1));
        }
        return n;
    }
}
