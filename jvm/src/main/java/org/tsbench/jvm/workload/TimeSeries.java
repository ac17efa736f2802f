package org.tsbench.jvm.workload;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.tsbench.jvm.protocol.Cost;
import org.tsbench.jvm.protocol.Count;
import org.tsbench.jvm.protocol.Disk;
import org.tsbench.jvm.protocol.Errors;
import org.tsbench.jvm.protocol.Latency;
import org.tsbench.jvm.protocol.Progress;
import org.tsbench.jvm.protocol.Result;
import org.tsbench.jvm.protocol.Step;
import org.tsbench.jvm.protocol.Verification;
import org.tsbench.jvm.stores.Engine;
import org.tsbench.jvm.stores.Store;

/**
 * The time-series workload of Go's workload.Run on one JVM engine, step
 * for step: write N points in batches, query every series with its own
 * bounded cursor, delete the older half by a range delete per series,
 * compact, query the rest, write N/2 more. Data generation, encoding and
 * verification are outside the timed spans, every point read is checked,
 * and the result is workload.Result's JSON. The steps change the store,
 * so no warmup pass precedes them.
 */
public final class TimeSeries {
    /** Points a query copies out between looks at the clock (Go's chunkPoints). */
    static final int CHUNK = 1024;

    private final Engine engine;
    private final Engine.Settings settings;
    private final Path dir;
    private final TimeSeriesConfig cfg;
    private final Points gen;
    private final Progress progress;
    private Store db;
    /** The steps that ran, in order; null until the store opened. */
    private List<Step> steps;

    public TimeSeries(Engine engine, Engine.Settings settings, Path dir, TimeSeriesConfig cfg, Progress progress) {
        this.engine = engine;
        this.settings = settings;
        this.dir = dir;
        this.cfg = cfg;
        this.gen = new Points(cfg.series(), cfg.seed());
        this.progress = progress;
    }

    private interface Body {
        void run(Run r) throws Exception;
    }

    private static final class Run extends Timings {
        long logical;
        Verify verify;
    }

    /**
     * Runs the six steps into steps(), sending head with the steps so far
     * after each; each step's failure, prefixed with its name, goes to errors.
     */
    public void run(Result head, List<String> errors) throws Exception {
        Files.createDirectories(dir);
        db = engine.opener().open(dir, settings);
        long n = cfg.points(), h = n / 2;
        steps = new ArrayList<>();
        try {
            Object[][] plan = {
                {"write", "Write " + Count.format(n) + " values", n, (Body) r -> write(r, 0, n), new long[] {0, n}},
                {"query", "Query " + Count.format(n) + " values", n, (Body) r -> query(r, 0, n), null},
                {"delete", "Delete " + Count.format(h) + " values", h, (Body) r -> delete(r, h), null},
                {"compact", "Compaction", n - h, (Body) this::compact, null},
                {"query_after_delete", "Query " + Count.format(n - h) + " values", n - h, (Body) r -> query(r, h, n), null},
                {"write_more", "Write " + Count.format(h) + " values", h, (Body) r -> write(r, n, n + h), new long[] {n, n + h}},
            };
            for (Object[] p : plan) {
                String name = (String) p[0];
                Ran ran = step(name, (String) p[1], (long) p[2], (Body) p[3], (long[]) p[4]);
                steps.add(ran.step());
                if (ran.step().error() != null) {
                    errors.add(name + ": " + ran.step().error());
                }
                progress.partial(head.withSteps(steps));
                if (ran.fatal() != null) {
                    break;
                }
            }
        } finally {
            db.close();
        }
    }

    /** The steps that ran, in order, whatever ended the run; null if the store did not open. */
    public List<Step> steps() {
        return steps;
    }

    /** A step's figures, and the engine error that ends the run if it had one. */
    private record Ran(Step step, Exception fatal) {
    }

    /**
     * Runs body as step name and measures what it cost; after a write that
     * passed, spotCheck reads back the first and last point of written.
     */
    private Ran step(String name, String label, long points, Body body, long[] written) throws Exception {
        Run r = new Run();
        if (name.equals("delete")) {
            r.logical = gen.logicalBytes(0, points);
        } else if (name.equals("compact")) {
            r.logical = gen.logicalBytes(cfg.points() / 2, cfg.points());
        }
        long counted = name.equals("compact") ? 0 : points;
        AtomicInteger fds = new AtomicInteger();
        Thread sampler = new Thread(() -> {
            try {
                while (true) {
                    fds.accumulateAndGet(openFds(), Math::max);
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                // the step ended
            }
        }, "fds");
        sampler.setDaemon(true);
        sampler.start();
        Span span = new Span();
        Exception fatal = null;
        long wall;
        try {
            progress.step(label, counted, r.done, () -> {
                body.run(r);
                return null;
            });
        } catch (Exception e) {
            fatal = e;
        } finally {
            wall = span.elapsed();
            sampler.interrupt();
            sampler.join();
        }
        Cost cost = span.end();
        boolean rated = points > 0 && r.time > 0 && !name.equals("compact");
        double pointsPerSec = rated ? points / (r.time / 1e9) : 0.0;
        double usPerPoint = rated ? r.time / 1e3 / points : 0.0;
        boolean amp = cost.io() != null && r.logical > 0 && !name.startsWith("query");
        double writeAmp = amp ? (double) cost.io().writeBytes() / r.logical : 0.0;
        Disk disk = DiskUsage.measure(dir);
        int peakFds = Math.max(fds.get(), openFds());
        Latency latency = r.latency();
        List<String> errs = new ArrayList<>();
        if (fatal != null) {
            errs.add(Errors.oneLine(fatal));
        }
        Verification verify = r.verify != null ? r.verify.verification() : null;
        if (verify != null && !verify.ok()) {
            errs.add("workload: verification failed: " + verify.summary("points"));
        }
        if (fatal == null && written != null) {
            String bad = spotCheck(written[0], written[1]);
            if (bad != null) {
                errs.add(bad);
            }
        }
        String error = errs.isEmpty() ? null : String.join("; ", errs);
        return new Ran(new Step(name, label, points, r.time, wall, 0, pointsPerSec, usPerPoint, cost, r.logical, writeAmp,
                disk, peakFds, latency, verify, error, span.jvm(0)), fatal);
    }

    private static int openFds() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return (int) s.count();
        } catch (Exception e) {
            return 0;
        }
    }

    /** Points [lo, hi) in batches of cfg.batch, one commit each, timed from the first put to the commit. */
    private void write(Run r, long lo, long hi) throws Exception {
        int size = (int) cfg.batch();
        byte[] keys = new byte[size * TsKey.SIZE];
        byte[] vals = new byte[size * 11];
        int[] ends = new int[size];
        try (Store.Batch b = db.batch()) {
            for (long start = lo; start < hi; start += size) {
                int m = (int) Math.min(size, hi - start);
                int at = 0;
                for (int j = 0; j < m; j++) {
                    long i = start + j;
                    gen.key(keys, j * TsKey.SIZE, i);
                    at += Points.putValue(vals, at, gen.value(i + 1));
                    ends[j] = at;
                }
                long t0 = System.nanoTime();
                for (int j = 0, from = 0; j < m; from = ends[j], j++) {
                    b.put(keys, j * TsKey.SIZE, TsKey.SIZE, vals, from, ends[j] - from);
                }
                b.commit();
                r.add(System.nanoTime() - t0);
                r.logical += (long) m * TsKey.SIZE + at;
                r.done.addAndGet(m);
            }
        }
    }

    /** Reads back the first and last point written, as Go's spotCheck; null if both check out. */
    private String spotCheck(long lo, long hi) throws Exception {
        if (hi <= lo) {
            return null;
        }
        List<String> bad = new ArrayList<>();
        byte[] key = new byte[TsKey.SIZE];
        byte[] got = new byte[64];
        byte[] want = new byte[11];
        for (long i : new long[] {lo, hi - 1}) {
            gen.key(key, 0, i);
            int n = db.get(key, got);
            int w = Points.putValue(want, 0, gen.value(i + 1));
            if (n < 0) {
                bad.add("workload: verification failed: reading back point seq " + (i + 1) + ": engine: not found");
            } else if (!Arrays.equals(got, 0, n, want, 0, w)) {
                bad.add("workload: verification failed: reading back point seq " + (i + 1) + ": value "
                        + java.util.HexFormat.of().formatHex(got, 0, n) + ", want " + java.util.HexFormat.of().formatHex(want, 0, w));
            }
        }
        return bad.isEmpty() ? null : String.join("; ", bad);
    }

    /**
     * Every series from its own cursor, seeking to the series' first key and
     * stopping at the next series' (the bound Go's engines apply inside
     * their iterators); entries are copied out as they come, checked per
     * chunk, untimed. One latency sample per series.
     */
    private void query(Run r, long lo, long hi) throws Exception {
        Verify v = new Verify(hi - lo);
        r.verify = v;
        byte[] lower = new byte[TsKey.SIZE], upper = new byte[TsKey.SIZE];
        byte[] arena = new byte[CHUNK * (TsKey.SIZE + 64)];
        int[] klen = new int[CHUNK], vlen = new int[CHUNK];
        for (long s = 0; s < cfg.series(); s++) {
            Checker c = new Checker(gen, v, s, gen.first(lo, s), hi);
            TsKey.put(lower, 0, s, 0, 0);
            TsKey.put(upper, 0, s + 1, 0, 0);
            long spent = 0, read = 0;
            int n = 0, used = 0;
            long t0 = System.nanoTime();
            try (Store.Cursor cur = db.cursor()) {
                for (boolean ok = cur.seek(lower); ok; ok = cur.next()) {
                    int kl = cur.key(arena, used);
                    if (Arrays.compareUnsigned(arena, used, used + kl, upper, 0, TsKey.SIZE) >= 0) {
                        break;
                    }
                    int vl = cur.value(arena, used + kl);
                    klen[n] = kl;
                    vlen[n] = vl;
                    used += kl + vl;
                    if (++n == CHUNK || used > arena.length - 2 * (TsKey.SIZE + 64)) {
                        spent += System.nanoTime() - t0;
                        read += n;
                        check(c, arena, klen, vlen, n);
                        n = 0;
                        used = 0;
                        t0 = System.nanoTime();
                    }
                }
            }
            r.add(spent + System.nanoTime() - t0);
            read += n;
            check(c, arena, klen, vlen, n);
            c.finish();
            r.logical += c.bytes;
            r.done.addAndGet(read);
        }
    }

    private static void check(Checker c, byte[] arena, int[] klen, int[] vlen, int n) {
        for (int j = 0, at = 0; j < n; at += klen[j] + vlen[j], j++) {
            c.check(arena, at, klen[j], at + klen[j], vlen[j]);
        }
    }

    /** The oldest h points: one range delete per series over the timestamps before point h's. */
    private void delete(Run r, long h) throws Exception {
        long cutoff = Points.timestamp(h);
        byte[] start = new byte[TsKey.SIZE], end = new byte[TsKey.SIZE];
        for (long s = 0; s < cfg.series(); s++) {
            TsKey.put(start, 0, s, 0, 0);
            TsKey.put(end, 0, s, cutoff, 0);
            long t0 = System.nanoTime();
            db.deleteRange(start, end);
            r.add(System.nanoTime() - t0);
            r.done.addAndGet(gen.count(0, h, s));
        }
    }

    private void compact(Run r) throws Exception {
        long t0 = System.nanoTime();
        db.compact();
        r.time += System.nanoTime() - t0;
        r.done.addAndGet(cfg.points() - cfg.points() / 2);
    }
}
