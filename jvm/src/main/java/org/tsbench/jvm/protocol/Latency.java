package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;

/** A latency distribution, under Go's measure.Percentiles names; the ranks are exact. */
public record Latency(
        @JsonProperty("count") long count,
        @JsonProperty("p50_ns") long p50Ns,
        @JsonProperty("p99_ns") long p99Ns,
        @JsonProperty("p999_ns") long p999Ns,
        @JsonProperty("max_ns") long maxNs) {

    /** The distribution of the first n samples of lat, n > 0. */
    public static Latency of(long[] lat, int n) {
        long[] s = Arrays.copyOf(lat, n);
        Arrays.sort(s);
        return new Latency(n, rank(s, 50), rank(s, 99), rank(s, 99.9), s[s.length - 1]);
    }

    private static long rank(long[] s, double p) {
        int i = (int) Math.ceil(p / 100 * s.length) - 1;
        return s[Math.max(0, Math.min(i, s.length - 1))];
    }
}
