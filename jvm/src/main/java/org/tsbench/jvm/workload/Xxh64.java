package org.tsbench.jvm.workload;

/** Streaming XXH64 with seed 0, as Go's cespare/xxhash New and Sum64. */
final class Xxh64 {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private long v1 = P1 + P2;
    private long v2 = P2;
    private long v3 = 0;
    private long v4 = -P1;
    private long total;
    private final byte[] mem = new byte[32];
    private int n;

    void update(byte[] b, int off, int len) {
        total += len;
        if (n + len < 32) {
            System.arraycopy(b, off, mem, n, len);
            n += len;
            return;
        }
        if (n > 0) {
            int c = 32 - n;
            System.arraycopy(b, off, mem, n, c);
            off += c;
            len -= c;
            v1 = round(v1, le64(mem, 0));
            v2 = round(v2, le64(mem, 8));
            v3 = round(v3, le64(mem, 16));
            v4 = round(v4, le64(mem, 24));
            n = 0;
        }
        for (; len >= 32; off += 32, len -= 32) {
            v1 = round(v1, le64(b, off));
            v2 = round(v2, le64(b, off + 8));
            v3 = round(v3, le64(b, off + 16));
            v4 = round(v4, le64(b, off + 24));
        }
        System.arraycopy(b, off, mem, 0, len);
        n = len;
    }

    long digest() {
        long h;
        if (total >= 32) {
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = mergeRound(h, v1);
            h = mergeRound(h, v2);
            h = mergeRound(h, v3);
            h = mergeRound(h, v4);
        } else {
            h = v3 + P5;
        }
        h += total;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            h ^= round(0, le64(mem, i));
            h = Long.rotateLeft(h, 27) * P1 + P4;
        }
        if (i + 4 <= n) {
            h ^= (le32(mem, i) & 0xffffffffL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            i += 4;
        }
        for (; i < n; i++) {
            h ^= (mem[i] & 0xffL) * P5;
            h = Long.rotateLeft(h, 11) * P1;
        }
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }

    private static long round(long acc, long input) {
        acc += input * P2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P1;
    }

    private static long mergeRound(long acc, long val) {
        val = round(0, val);
        acc ^= val;
        return acc * P1 + P4;
    }

    private static long le64(byte[] b, int i) {
        return (b[i] & 0xffL) | (b[i + 1] & 0xffL) << 8 | (b[i + 2] & 0xffL) << 16 | (b[i + 3] & 0xffL) << 24
                | (b[i + 4] & 0xffL) << 32 | (b[i + 5] & 0xffL) << 40 | (b[i + 6] & 0xffL) << 48 | (b[i + 7] & 0xffL) << 56;
    }

    private static int le32(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
    }
}
