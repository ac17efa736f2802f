package org.tsbench.jvm.workload;

/**
 * The micro benchmarks' values, byte for byte as Go's micro.values
 * (workload/micro/value.go): a pool of compressible pieces filled by Go's
 * math/rand/v2 PCG, each value a slice of it chosen by hashing (seed, i,
 * generation).
 */
final class Values {
    static final int PIECE_SIZE = 100;
    static final int POOL_SIZE = 4 << 20;

    final int size;
    final int piece;
    final int pieces;
    final long seed;
    /** The pieces, then the pool's start again up to size bytes. */
    final byte[] pool;

    Values(int size, double ratio, long seed) {
        this.size = size;
        this.seed = seed;
        piece = Math.min(Math.max(size, 1), PIECE_SIZE);
        pieces = Math.max(POOL_SIZE / piece, 1);
        int body = pieces * piece;
        pool = new byte[body + size];
        int raw = Math.max(1, (int) (piece * ratio));
        Pcg rng = new Pcg(seed, size);
        for (int p = 0; p < pieces; p++) {
            int b = p * piece;
            for (int j = 0; j < raw; j += 8) {
                long w = rng.next();
                for (int k = 0; k < 8 && j + k < raw; k++) {
                    pool[b + j + k] = (byte) (w >>> (8 * k)); // little-endian, as Go's PutUint64
                }
            }
            for (int j = raw; j < piece; j += raw) {
                System.arraycopy(pool, b, pool, b + j, Math.min(raw, piece - j));
            }
        }
        for (int j = body; j < pool.length; j += body) {
            System.arraycopy(pool, 0, pool, j, Math.min(body, pool.length - j));
        }
    }

    /** The offset in pool of entry i's value at generation gen. */
    int offset(long i, long gen) {
        long p = Long.remainderUnsigned(Mix.mix(Mix.mix(seed ^ gen * 0xd1b54a32d192ed03L) + i), pieces);
        return (int) p * piece;
    }

    /** Go's math/rand/v2 PCG: a 128-bit LCG with the DXSM output. */
    static final class Pcg {
        private long hi;
        private long lo;

        Pcg(long seed1, long seed2) {
            hi = seed1;
            lo = seed2;
        }

        long next() {
            final long mulHi = 2549297995355413924L;
            final long mulLo = 4865540595714422341L;
            final long incHi = 6364136223846793005L;
            final long incLo = 1442695040888963407L;
            long h = Mix.unsignedMultiplyHigh(lo, mulLo) + hi * mulLo + lo * mulHi;
            long l = lo * mulLo;
            long nl = l + incLo;
            long carry = Long.compareUnsigned(nl, l) < 0 ? 1 : 0;
            h = h + incHi + carry;
            lo = nl;
            hi = h;
            long x = h;
            x ^= x >>> 32;
            x *= 0xda942042e4dd58b5L;
            x ^= x >>> 48;
            x *= (nl | 1);
            return x;
        }
    }
}
