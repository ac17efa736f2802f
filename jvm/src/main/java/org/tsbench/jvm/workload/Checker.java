package org.tsbench.jvm.workload;

/** Checks the points of one series as a query reads them, as Go's workload checker does. */
final class Checker {
    private final Points gen;
    private final Verify v;
    private final long series;
    private long next;
    private final long hi;
    long bytes;

    Checker(Points gen, Verify v, long series, long next, long hi) {
        this.gen = gen;
        this.v = v;
        this.series = series;
        this.next = next;
        this.hi = hi;
    }

    void check(byte[] b, int koff, int klen, int voff, int vlen) {
        v.read++;
        bytes += klen + vlen;
        if (klen != TsKey.SIZE) {
            unexpected("series " + series + ": tskey: bad key");
            return;
        }
        long s = get(b, koff), ts = get(b, koff + 8), seq = get(b, koff + 16);
        if (s != series) {
            unexpected("series " + series + ": iterator returned a key of series " + Long.toUnsignedString(s));
            return;
        }
        long i = seq - 1;
        if (i != next || Long.compareUnsigned(seq, hi) > 0) {
            if (seq == 0 || Long.compareUnsigned(seq, hi) > 0 || i < next || (i - series) % gen.series() != 0) {
                unexpected("series " + series + ": unexpected point seq " + Long.toUnsignedString(seq)
                        + " (deleted, duplicated, out of order or never written)");
                return;
            }
            long skipped = (i - next) / gen.series();
            v.missing += skipped;
            v.problem("series " + series + ": " + skipped + " points missing before seq " + seq);
        }
        long want = Points.timestamp(i);
        if (ts != want) {
            unexpected("series " + series + ": point seq " + seq + " has timestamp " + Long.toUnsignedString(ts) + ", want " + want);
            return;
        }
        next = i + gen.series();
        long w = gen.value(seq);
        try {
            long got = Points.parseValue(b, voff, vlen);
            if (got != w) {
                v.wrong++;
                v.problem("series " + series + ": point seq " + seq + " has value " + got + ", want " + w);
            }
        } catch (IllegalArgumentException e) {
            v.wrong++;
            v.problem("series " + series + ": point seq " + seq + ": " + e.getMessage());
        }
    }

    void finish() {
        if (next >= hi) {
            return;
        }
        long n = (hi - next + gen.series() - 1) / gen.series();
        v.missing += n;
        v.problem("series " + series + ": " + n + " points missing from seq " + (next + 1) + " on");
    }

    private void unexpected(String what) {
        v.unexpected++;
        v.problem(what);
    }

    private static long get(byte[] b, int off) {
        long x = 0;
        for (int k = 0; k < 8; k++) {
            x = x << 8 | (b[off + k] & 0xff);
        }
        return x;
    }
}
