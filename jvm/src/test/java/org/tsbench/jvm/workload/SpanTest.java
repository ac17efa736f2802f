package org.tsbench.jvm.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.tsbench.jvm.protocol.Cost;

/** Span's memory by kind, which Go's measure.MemoryPeaks decodes. */
class SpanTest {
    @AfterEach
    void defaultPeriod() {
        Span.samplePeriod(0);
    }

    private static boolean parse(String status, long[] kinds) {
        byte[] b = status.getBytes(StandardCharsets.US_ASCII);
        return Span.MemorySampler.parse(b, b.length, kinds);
    }

    @Test
    void parsesStatus() {
        long[] kinds = new long[3];
        assertTrue(parse("Name:\tjava\nVmHWM:\t  600000 kB\nVmRSS:\t  500000 kB\nRssAnon:\t  400000 kB\n"
                + "RssFile:\t   90000 kB\nRssShmem:\t      12 kB\nVmData:\t 1000 kB\n", kinds));
        assertArrayEquals(new long[] {400000L << 10, 90000L << 10, 12L << 10}, kinds);
        // A kernel before 4.5 has none of them; a kind's name elsewhere in a line is not it.
        assertFalse(parse("Name:\tjava\nVmRSS:\t  500000 kB\n", new long[3]));
        assertFalse(parse("Name:\tRssAnon: 1 kB\nRssFile:\t 1 kB\nRssShmem:\t 1 kB\n", new long[3]));
        // The end of the buffer may cut the last line.
        assertTrue(parse("RssAnon:\t 4 kB\nRssFile:\t 5 kB\nRssShmem:\t 6", kinds));
        assertArrayEquals(new long[] {4L << 10, 5L << 10, 6L << 10}, kinds);
    }

    @Test
    void samplesWhileItRuns() throws Exception {
        Span.samplePeriod(10_000_000L);
        Span s = new Span();
        Thread.sleep(300);
        Cost.MemoryPeaks m = s.end().memory();
        assertNotNull(m);
        // The start, the end and some of the ~30 periods between, on a loaded machine.
        assertTrue(m.samples() >= 4, m.toString());
        assertTrue(m.privateBytes() > 0, m.toString());
        assertEquals(0L, m.goBytes());
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("memory")),
                "the sampling thread outlived its span");

        // A span too short for a period has its start and end.
        Span.samplePeriod(0);
        m = new Span().end().memory();
        assertTrue(m.samples() >= 2, m.toString());

        Span.samplePeriod(-1);
        assertNull(new Span().end().memory());
    }
}
