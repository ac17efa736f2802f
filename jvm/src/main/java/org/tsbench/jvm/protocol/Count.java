package org.tsbench.jvm.protocol;

import java.math.BigDecimal;

/** Numbers as the Go reports write them (harness.Count, approx, roundDuration). */
public final class Count {
    private Count() {
    }

    /** 100M, 1.5M, 10k, with at most two decimals, else in full. */
    public static String format(long n) {
        long[] sizes = {1_000_000_000L, 1_000_000L, 1_000L};
        String[] suffixes = {"G", "M", "k"};
        for (int i = 0; i < sizes.length; i++) {
            if (n >= sizes[i] && n % (sizes[i] / 100) == 0) {
                return BigDecimal.valueOf(n).divide(BigDecimal.valueOf(sizes[i])).stripTrailingZeros().toPlainString() + suffixes[i];
            }
        }
        return Long.toString(n);
    }

    /** Three significant digits: 950, 123k, 1.5M. */
    public static String approx(double v) {
        String[] units = {"", "k", "M", "G"};
        int i = 0;
        for (; i < units.length - 1 && v >= 999.5; i++) {
            v /= 1000;
        }
        String s = new BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
        return s + units[i];
    }

    /** 1m23s, 4.2s, 350ms, as Go prints rounded durations. */
    public static String duration(long ns) {
        if (ns >= 60_000_000_000L) {
            long s = Math.round(ns / 1e9);
            return (s / 60) + "m" + (s % 60) + "s";
        }
        if (ns >= 1_000_000_000L) {
            return BigDecimal.valueOf(Math.round(ns / 1e8), 1).stripTrailingZeros().toPlainString() + "s";
        }
        if (ns >= 1_000_000L) {
            return Math.round(ns / 1e6) + "ms";
        }
        return Math.round(ns / 1e3) + "µs";
    }
}
