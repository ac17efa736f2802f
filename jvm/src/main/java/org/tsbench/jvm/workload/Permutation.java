package org.tsbench.jvm.workload;

/**
 * Positions 0..n-1 to entry numbers, one to one: the identity or Go's
 * seeded shuffle (workload/micro/order.go), computed per position.
 */
final class Permutation {
    private static final int ROUNDS = 4;

    final long n;
    private final boolean random;
    private long mask;
    private int shift;
    private final long[] add = new long[ROUNDS];
    private final long[] mul = new long[ROUNDS];

    private Permutation(long n, boolean random) {
        this.n = n;
        this.random = random;
    }

    static Permutation sequential(long n) {
        return new Permutation(n, false);
    }

    static Permutation shuffled(long n, long seed) {
        Permutation p = new Permutation(n, true);
        int k = 64 - Long.numberOfLeadingZeros(Math.max(n, 1) - 1);
        p.mask = k == 64 ? -1L : (1L << k) - 1;
        p.shift = k / 2 + 1;
        long s = seed;
        for (int r = 0; r < ROUNDS; r++) {
            s = Mix.mix(s + 1);
            p.add[r] = s;
            s = Mix.mix(s + 1);
            p.mul[r] = s | 1;
        }
        return p;
    }

    long at(long i) {
        if (!random) {
            return i;
        }
        long x = i;
        while (true) {
            for (int r = 0; r < ROUNDS; r++) {
                x = (x + add[r]) & mask;
                x = (x * mul[r]) & mask;
                x ^= x >>> shift;
            }
            if (Long.compareUnsigned(x, n) < 0) {
                return x;
            }
        }
    }
}
