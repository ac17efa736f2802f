package org.tsbench.jvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * The time-series workload of Go's workload.Run on one JVM engine, step
 * for step: write N points in batches, query every series with its own
 * bounded cursor, delete the older half by a range delete per series,
 * compact, query the rest, write N/2 more. Data generation, encoding and
 * verification are outside the timed spans, every point read is checked,
 * and the result is workload.Result's JSON. The steps change the store,
 * so no warmup pass precedes them.
 */
final class TimeSeries {
    record Config(long points, long series, long batch, long seed) {
        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("points", points);
            m.put("series", series);
            m.put("batch", batch);
            m.put("seed", seed);
            m.put("settle", false);
            m.put("reuse_iterator", false);
            return m;
        }
    }

    /** Points a query copies out between looks at the clock (Go's chunkPoints). */
    static final int CHUNK = 1024;

    private final Engine engine;
    private final Engine.Settings settings;
    private final Path dir;
    private final Config cfg;
    private final Points gen;
    private final Progress progress;
    private Store db;

    TimeSeries(Engine engine, Engine.Settings settings, Path dir, Config cfg, Progress progress) {
        this.engine = engine;
        this.settings = settings;
        this.dir = dir;
        this.cfg = cfg;
        this.gen = new Points(cfg.series, cfg.seed);
        this.progress = progress;
    }

    private interface Body {
        void run(Run r) throws Exception;
    }

    private static final class Run {
        final AtomicLong done = new AtomicLong();
        long time;
        long[] lat = new long[1024];
        int nlat;
        long logical;
        Checker.Verify verify;

        void add(long ns) {
            time += ns;
            if (nlat == lat.length) {
                lat = Arrays.copyOf(lat, nlat * 2);
            }
            lat[nlat++] = ns;
        }
    }

    /** Runs the six steps; result holds the header, and gets the steps and any error. */
    void run(Map<String, Object> result, List<String> errors) throws Exception {
        Files.createDirectories(dir);
        db = engine.opener().open(dir, settings);
        long n = cfg.points, h = n / 2;
        List<Map<String, Object>> steps = new ArrayList<>();
        result.put("steps", steps);
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
                Map<String, Object> st = new LinkedHashMap<>();
                Exception fatal = step(st, name, (String) p[1], (long) p[2], (Body) p[3]);
                if (fatal == null && p[4] != null) {
                    long[] span = (long[]) p[4];
                    String bad = spotCheck(span[0], span[1]);
                    if (bad != null) {
                        st.merge("error", bad, (a, b) -> a + "; " + b);
                    }
                }
                steps.add(st);
                if (st.containsKey("error")) {
                    errors.add(name + ": " + st.get("error"));
                }
                progress.partial(result);
                if (fatal != null) {
                    break;
                }
            }
        } finally {
            db.close();
        }
    }

    /** Runs body as step name and records what it cost in st; returns an engine error that ends the run. */
    private Exception step(Map<String, Object> st, String name, String label, long points, Body body) throws Exception {
        st.put("name", name);
        st.put("label", label);
        st.put("points", points);
        Run r = new Run();
        if (name.equals("delete")) {
            r.logical = gen.logicalBytes(0, points);
        } else if (name.equals("compact")) {
            r.logical = gen.logicalBytes(cfg.points / 2, cfg.points);
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
        Map<String, Object> cost = span.end();
        st.put("time_ns", r.time);
        st.put("wall_ns", wall);
        st.put("settle_ns", 0L);
        boolean rated = points > 0 && r.time > 0 && !name.equals("compact");
        st.put("points_per_sec", rated ? points / (r.time / 1e9) : 0.0);
        st.put("us_per_point", rated ? r.time / 1e3 / points : 0.0);
        st.put("cpu_user_ns", cost.get("cpu_user_ns"));
        st.put("cpu_sys_ns", cost.get("cpu_sys_ns"));
        @SuppressWarnings("unchecked")
        Map<String, Object> io = (Map<String, Object>) cost.get("io");
        if (io != null) {
            st.put("io", io);
        }
        st.put("logical_bytes", r.logical);
        boolean amp = io != null && r.logical > 0 && !name.startsWith("query");
        st.put("write_amp", amp ? (double) (long) io.get("write_bytes") / r.logical : 0.0);
        st.put("disk", DiskUsage.measure(dir));
        st.put("peak_rss_bytes", cost.get("peak_rss_bytes"));
        if (cost.containsKey("memory")) {
            st.put("memory", cost.get("memory"));
        }
        st.put("open_fds", Math.max(fds.get(), openFds()));
        if (r.nlat > 0) {
            st.put("latency", Micro.percentiles(r.lat, r.nlat));
        }
        List<String> errs = new ArrayList<>();
        if (fatal != null) {
            errs.add(Main.oneLine(fatal));
        }
        if (r.verify != null) {
            st.put("verify", r.verify.json());
            if (!r.verify.ok()) {
                errs.add("workload: verification failed: " + r.verify.summary());
            }
        }
        if (!errs.isEmpty()) {
            st.put("error", String.join("; ", errs));
        }
        Map<String, Object> jvm = new LinkedHashMap<>();
        jvm.put("warmup_ops", 0L);
        jvm.put("gc_count", cost.get("gc_count"));
        jvm.put("gc_ns", cost.get("gc_ns"));
        st.put("jvm", jvm);
        return fatal;
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
        int size = (int) cfg.batch;
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
        Checker.Verify v = new Checker.Verify(hi - lo);
        r.verify = v;
        byte[] lower = new byte[TsKey.SIZE], upper = new byte[TsKey.SIZE];
        byte[] arena = new byte[CHUNK * (TsKey.SIZE + 64)];
        int[] klen = new int[CHUNK], vlen = new int[CHUNK];
        for (long s = 0; s < cfg.series; s++) {
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
        for (long s = 0; s < cfg.series; s++) {
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
        r.done.addAndGet(cfg.points - cfg.points / 2);
    }
}
