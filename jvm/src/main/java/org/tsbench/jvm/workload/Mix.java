package org.tsbench.jvm.workload;

/** The hashes the Go generators use, bit for bit. */
final class Mix {
    private Mix() {
    }

    /** The splitmix64 finalizer (micro's mix). */
    static long mix(long x) {
        x += 0x9e3779b97f4a7c15L;
        x = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d049bb133111ebL;
        return x ^ (x >>> 31);
    }

    /** 64-bit FNV-1a of s's bytes (Go's hash/fnv New64a). */
    static long fnv64a(String s) {
        long h = 0xcbf29ce484222325L;
        for (byte b : s.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }

    /** The high 64 bits of the unsigned 128-bit product (Java 18 has it built in). */
    static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }
}
