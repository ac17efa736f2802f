package org.tsbench.jvm.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import org.tsbench.jvm.protocol.Bench;
import org.tsbench.jvm.protocol.Count;
import org.tsbench.jvm.protocol.Cost;
import org.tsbench.jvm.protocol.Disk;
import org.tsbench.jvm.protocol.Errors;
import org.tsbench.jvm.protocol.Latency;
import org.tsbench.jvm.protocol.Progress;
import org.tsbench.jvm.protocol.Storage;
import org.tsbench.jvm.protocol.Verification;
import org.tsbench.jvm.stores.Engine;
import org.tsbench.jvm.stores.Store;

/**
 * The LmdbJava report's micro benchmarks on one JVM engine, the way Go's
 * workload/micro runs them on a Go engine: the same keys, values, orders
 * and seeds, the same timed spans, every read checked, and the result in
 * micro.Result's JSON. Before each measured benchmark an untimed warmup
 * pass of the same operations lets the JIT compile the paths it measures;
 * iterated (a fork of Forks), each benchmark runs the config's warmup
 * iterations, then its measured iterations, which its Bench lists.
 */
public final class Micro {
    /** The benchmarks the worker runs: the LmdbJava report's. */
    public static final List<String> BENCHMARKS = List.of("write", "readKey", "readSeq", "readRev", "readCrc", "readXxh64");
    /** Those that iterate in key order. */
    public static final Set<String> ORDERED = Set.of("readSeq", "readRev", "readCrc", "readXxh64");

    static final int SCAN_CHUNK = 1024;
    static final int PROGRESS_EVERY = 1024;

    private final Engine engine;
    private final Engine.Settings settings;
    private final Path dir;
    private final MicroConfig cfg;
    private final Progress progress;
    /** Whether the config's iterations run rather than one warmup and one measured pass. */
    private final boolean iterated;
    private final Values vals;
    private final Map<String, Long> runs = new HashMap<>();
    private Store db;
    /** Entries [0, loaded) are in the store, written in order; 0 when unknown. */
    private long loaded;
    private Permutation order;

    public Micro(Engine engine, Engine.Settings settings, Path dir, MicroConfig cfg, Progress progress, boolean iterated) {
        this.engine = engine;
        this.settings = settings;
        this.dir = dir;
        this.cfg = cfg;
        this.progress = progress;
        this.iterated = iterated;
        this.vals = new Values(cfg.valueSize(), cfg.ratio(), cfg.seed());
    }

    /**
     * Runs every benchmark and closes the store: a Bench per benchmark, or iterated one per measured iteration
     * (Forks merges them); each failure, prefixed with its benchmark, goes to errors.
     */
    public List<Bench> run(List<String> errors) throws Exception {
        List<Bench> out = new ArrayList<>();
        for (String name : cfg.benchmarks()) {
            for (Bench b : bench(name)) {
                if (b.error() != null) {
                    errors.add(name + ": " + b.error());
                }
                out.add(b);
            }
        }
        close();
        return out;
    }

    void close() throws Exception {
        if (db != null) {
            Store d = db;
            db = null;
            d.close();
        }
    }

    /** The seed of the next run of benchmark name: micro's Session.seed. */
    long seed(String name) {
        long r = runs.merge(name, 1L, Long::sum);
        return Mix.mix((cfg.seed() ^ Mix.fnv64a(name)) + r);
    }

    /** What one benchmark run measures. */
    private static final class Run extends Timings {
        long bytes;
        String latencyOf = "op";
        Verify verify;
    }

    private interface Body {
        void run(Run r) throws Exception;
    }

    /** Why engine cannot run benchmark name, as its Bench; null if it can. */
    public static Bench unsupported(Engine engine, MicroConfig cfg, String name) {
        int ks = cfg.keyType().size;
        int vs = cfg.valueSize();
        if (!BENCHMARKS.contains(name)) {
            return Bench.unmeasured(name, ks, vs,
                    engine.name() + ": not supported: the JVM worker runs the LmdbJava report's benchmarks " + BENCHMARKS, null);
        }
        if (ORDERED.contains(name) && !engine.ordered()) {
            return Bench.unmeasured(name, ks, vs, engine.name() + ": not supported: unordered, it has no ordered iteration", null);
        }
        return null;
    }

    /** Runs benchmark name: what each measured pass measured, or why it measured nothing. */
    private List<Bench> bench(String name) {
        int ks = cfg.keyType().size;
        int vs = cfg.valueSize();
        Bench not = unsupported(engine, cfg, name);
        if (not != null) {
            return List.of(not);
        }
        int warmups = iterated ? cfg.warmupIterations() : 1;
        int passes = iterated ? cfg.iterations() : 1;
        // Set once a read had to load the store, which a failure after that leaves beside its error.
        String setup = null;
        try {
            boolean write = name.equals("write");
            long n;
            Body body;
            if (write) {
                n = cfg.num();
                Permutation p = cfg.order().equals("seq") ? Permutation.sequential(n) : Permutation.shuffled(n, seed(name));
                body = r -> putBatches(r, n, p);
                // A warmup writes the same entries into a store that is then thrown away.
                for (int i = 1; i <= warmups; i++) {
                    fresh();
                    warmup(name, n, pass("warmup", i, warmups), body);
                }
                body = r -> {
                    putBatches(r, n, p);
                    loaded = n;
                    order = p;
                };
            } else {
                if (loaded == 0) {
                    load();
                    setup = "no fill had loaded the store: write loaded " + Count.format(loaded) + " entries first, untimed";
                } else if (db == null) {
                    db = engine.opener().open(dir, settings);
                }
                n = loaded;
                body = name.equals("readKey") ? r -> get(r, n) : r -> scan(r, n, name);
                for (int i = 1; i <= warmups; i++) {
                    warmup(name, n, pass("warmup", i, warmups), body);
                }
            }
            List<Bench> measured = new ArrayList<>();
            for (int i = 1; i <= passes; i++) {
                if (write) {
                    fresh();
                }
                Bench b = measure(name, write, setup, n, pass("iteration", i, passes), body);
                measured.add(b);
                if (b.error() != null) {
                    break;
                }
            }
            return measured;
        } catch (Exception e) {
            loaded = 0;
            return List.of(Bench.unmeasured(name, ks, vs, setup, Errors.oneLine(e)));
        }
    }

    /** A progress label's suffix naming pass i of n, none for the single pass. */
    private String pass(String what, int i, int n) {
        if (!iterated) {
            return what.equals("warmup") ? " " + what : "";
        }
        return " " + what + " " + i + "/" + n;
    }

    /** A measured pass of benchmark name over n entries, after its warmup; a write then measures the store. */
    private Bench measure(String name, boolean write, String setup, long n, String label, Body body) throws Exception {
        int ks = cfg.keyType().size;
        Run r = new Run();
        Span span = new Span();
        Exception failed = null;
        long wall;
        try {
            progress.step(name + " " + Count.format(n) + label, n, r.done, () -> {
                body.run(r);
                return null;
            });
        } catch (Exception e) {
            failed = e;
            if (write) {
                loaded = 0;
            }
        } finally {
            wall = span.elapsed();
        }
        if (write) {
            close();
        }
        Cost cost = span.end();
        long ops = r.done.get();
        Double usPerOp = null, opsPerSec = null, mbPerSec = null;
        if (ops > 0 && r.time > 0) {
            double sec = r.time / 1e9;
            usPerOp = sec * 1e6 / ops;
            opsPerSec = ops / sec;
            mbPerSec = r.bytes / 1e6 / sec;
        }
        Latency latency = r.latency();
        String latencyOf = latency != null ? r.latencyOf : null;
        String error = failed != null ? Errors.oneLine(failed) : null;
        Storage storage = null;
        if (write && failed == null) {
            try {
                Disk closed = DiskUsage.measure(dir);
                db = engine.opener().open(dir, settings);
                storage = Storage.of(closed, DiskUsage.measure(dir), loaded, ks, cfg.valueSize());
            } catch (Exception e) {
                loaded = 0;
                error = Errors.oneLine(e);
            }
        }
        Verification verify = r.verify != null ? r.verify.verification() : null;
        if (error == null && verify != null && !verify.ok()) {
            error = "micro: verification failed: " + verify.summary("entries");
        }
        return new Bench(name, ops, ks, cfg.valueSize(), setup, r.time, wall, usPerOp, opsPerSec, mbPerSec, r.bytes, cost,
                latency, latencyOf, storage, span.jvm(n * (iterated ? cfg.warmupIterations() : 1)), verify, error);
    }

    /** Runs body once, untimed and unreported beyond the progress line. */
    private void warmup(String name, long n, String label, Body body) throws Exception {
        Run r = new Run();
        progress.step(name + " " + Count.format(n) + label, n, r.done, () -> {
            body.run(r);
            return null;
        });
        if (r.verify != null && !r.verify.verification().ok()) {
            throw new IllegalStateException("warmup: verification failed: first: " + r.verify.first);
        }
    }

    /** Replaces the store by an empty one. */
    private void fresh() throws Exception {
        loaded = 0;
        close();
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : (Iterable<Path>) s::iterator) {
                    deleteTree(p);
                }
            }
        }
        Files.createDirectories(dir);
        db = engine.opener().open(dir, settings);
    }

    private static void deleteTree(Path p) throws IOException {
        if (Files.isDirectory(p) && !Files.isSymbolicLink(p)) {
            try (Stream<Path> s = Files.list(p)) {
                for (Path c : (Iterable<Path>) s::iterator) {
                    deleteTree(c);
                }
            }
        }
        Files.delete(p);
    }

    /** Fills a fresh store as write does, untimed, then reopens it. */
    private void load() throws Exception {
        fresh();
        long n = cfg.num();
        Permutation p = cfg.order().equals("seq") ? Permutation.sequential(n) : Permutation.shuffled(n, seed("write"));
        putBatches(new Run(), n, p);
        close();
        db = engine.opener().open(dir, settings);
        loaded = n;
        order = p;
    }

    /** Entries at positions [0, n) of p, cfg.batch per committed batch; one latency sample per batch. */
    private void putBatches(Run r, long n, Permutation p) throws Exception {
        r.latencyOf = "batch";
        int ks = cfg.keyType().size;
        int size = cfg.batch();
        byte[] buf = new byte[size * ks];
        long[] index = new long[size];
        try (Store.Batch batch = db.batch()) {
            for (long start = 0; start < n; start += size) {
                int m = (int) Math.min(size, n - start);
                for (int j = 0; j < m; j++) {
                    index[j] = p.at(start + j);
                    cfg.keyType().put(buf, j * ks, index[j]);
                }
                long t0 = System.nanoTime();
                for (int j = 0; j < m; j++) {
                    batch.put(buf, j * ks, ks, vals.pool, vals.offset(index[j], 0), vals.size);
                }
                batch.commit();
                r.add(System.nanoTime() - t0);
                r.bytes += (long) m * (ks + vals.size);
                r.done.set(start + m);
            }
        }
    }

    /** readKey: every entry once, in the order it was written, each Get timed alone. */
    private void get(Run r, long n) throws Exception {
        Verify v = new Verify(0);
        r.verify = v;
        byte[] key = new byte[cfg.keyType().size];
        byte[] dst = new byte[Math.max(vals.size, 1) + 1];
        long expected = 0, read = 0, missing = 0, wrong = 0;
        for (long j = 0; j < n; j++) {
            long i = order.at(j % loaded);
            cfg.keyType().put(key, 0, i);
            long t0 = System.nanoTime();
            int len = db.get(key, dst);
            r.add(System.nanoTime() - t0);
            if ((j + 1) % PROGRESS_EVERY == 0) {
                r.done.set(j + 1);
            }
            expected++;
            if (len < 0) {
                missing++;
                v.problem("entry " + i + " not found");
                continue;
            }
            read++;
            r.bytes += key.length + len;
            int off = vals.offset(i, 0);
            if (len != vals.size || !Arrays.equals(dst, 0, len, vals.pool, off, off + vals.size)) {
                wrong++;
                v.problem("entry " + i + " has a wrong value (" + len + " bytes, want " + vals.size + ")");
            }
        }
        r.done.set(n);
        v.expected = expected;
        v.read = read;
        v.missing = missing;
        v.wrong = wrong;
    }

    /** The scans: n entries from one cursor, copied out (or hashed) as they come, checked per chunk. */
    private void scan(Run r, long n, String name) throws Exception {
        boolean reverse = name.equals("readRev");
        int hash = name.equals("readCrc") ? 1 : name.equals("readXxh64") ? 2 : 0;
        r.latencyOf = "chunk";
        Verify v = new Verify(n);
        r.verify = v;
        long present = loaded;
        int ks = cfg.keyType().size;
        int es = ks + vals.size;
        // Room for entries of the wrong size too, which the check then reports.
        byte[] arena = new byte[SCAN_CHUNK * es * 2 + 4096];
        int[] klen = new int[SCAN_CHUNK + 1];
        int[] vlen = new int[SCAN_CHUNK + 1];
        int[] chunk = {0, 0}; // entries, bytes used
        long[] checked = {0};
        byte[] want = new byte[ks];
        CRC32 crc = new CRC32();
        Xxh64 xxh = new Xxh64();
        byte[] scratch = new byte[es * 2 + 4096];
        Runnable check = () -> {
            int at = 0;
            for (int c = 0; c < chunk[0]; c++) {
                long pos = checked[0] + c;
                int kl = klen[c], vl = vlen[c];
                if (pos >= n || present == 0) {
                    v.unexpected++;
                    v.problem("unexpected entry " + hex(arena, at, kl));
                } else {
                    long i = reverse ? present - 1 - pos % present : pos % present;
                    cfg.keyType().put(want, 0, i);
                    int off = vals.offset(i, 0);
                    if (!Arrays.equals(arena, at, at + kl, want, 0, ks)) {
                        v.unexpected++;
                        v.problem("entry " + pos + " of the scan has key " + hex(arena, at, kl) + ", want " + hex(want, 0, ks));
                    } else if (!Arrays.equals(arena, at + kl, at + kl + vl, vals.pool, off, off + vals.size)) {
                        v.wrong++;
                        v.problem("entry " + pos + " of the scan (key " + hex(arena, at, kl) + ") has a wrong value");
                    }
                }
                at += kl + vl;
            }
            checked[0] += chunk[0];
            chunk[0] = 0;
            chunk[1] = 0;
        };
        long read = 0, pass = 0;
        long t0 = System.nanoTime();
        Store.Cursor c = db.cursor();
        boolean ok = reverse ? c.last() : c.first();
        while (read < n) {
            if (!ok) {
                if (pass != present || present == 0) {
                    break;
                }
                pass = 0;
                ok = reverse ? c.last() : c.first();
                continue;
            }
            if (hash == 0) {
                int at = chunk[1];
                int kl = c.key(arena, at);
                int vl = c.value(arena, at + kl);
                klen[chunk[0]] = kl;
                vlen[chunk[0]] = vl;
                chunk[0]++;
                chunk[1] += kl + vl;
                r.bytes += kl + vl;
            } else {
                int kl = c.key(scratch, 0);
                int vl = c.value(scratch, kl);
                if (hash == 1) {
                    crc.update(scratch, 0, kl);
                    crc.update(scratch, kl, vl);
                } else {
                    xxh.update(scratch, 0, kl);
                    xxh.update(scratch, kl, vl);
                }
                r.bytes += kl + vl;
            }
            read++;
            pass++;
            ok = reverse ? c.prev() : c.next();
            if (read % SCAN_CHUNK == 0) {
                r.add(System.nanoTime() - t0);
                if (hash == 0) {
                    check.run();
                }
                r.done.set(read);
                t0 = System.nanoTime();
            }
        }
        // One more entry where the scan should have ended: the store holds entries it should not.
        boolean extra = ok && pass == present;
        if (extra && hash == 0) {
            int kl = c.key(arena, chunk[1]);
            int vl = c.value(arena, chunk[1] + kl);
            klen[chunk[0]] = kl;
            vlen[chunk[0]] = vl;
            chunk[0]++;
            chunk[1] += kl + vl;
        }
        c.close();
        r.add(System.nanoTime() - t0);
        r.done.set(read);
        v.read = read;
        if (extra && hash != 0) {
            v.unexpected++;
            v.problem("the store holds more than the " + present + " expected entries");
        }
        if (hash == 0) {
            check.run();
        }
        if (read < n && pass != present) {
            v.missing = n - read;
            v.problem("the scan ended after " + pass + " entries of " + present);
        }
        if (hash != 0) {
            // The expected checksum, from the generator.
            CRC32 wcrc = new CRC32();
            Xxh64 wxxh = new Xxh64();
            for (long pos = 0; pos < read; pos++) {
                long i = reverse ? present - 1 - pos % present : pos % present;
                cfg.keyType().put(want, 0, i);
                int off = vals.offset(i, 0);
                if (hash == 1) {
                    wcrc.update(want, 0, ks);
                    wcrc.update(vals.pool, off, vals.size);
                } else {
                    wxxh.update(want, 0, ks);
                    wxxh.update(vals.pool, off, vals.size);
                }
            }
            if (hash == 1) {
                v.checksum = String.format("%08x", crc.getValue());
                if (crc.getValue() != wcrc.getValue()) {
                    v.wrong++;
                    v.problem(String.format("CRC32 %08x, want %08x", crc.getValue(), wcrc.getValue()));
                }
            } else {
                long got = xxh.digest(), w = wxxh.digest();
                v.checksum = Long.toHexString(got);
                if (got != w) {
                    v.wrong++;
                    v.problem("XXH64 " + Long.toHexString(got) + ", want " + Long.toHexString(w));
                }
            }
        }
    }

    private static String hex(byte[] b, int off, int len) {
        StringBuilder s = new StringBuilder("\"");
        for (int i = off; i < off + len; i++) {
            int c = b[i] & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                s.append((char) c);
            } else {
                s.append(String.format("\\x%02x", c));
            }
        }
        return s.append('"').toString();
    }
}
