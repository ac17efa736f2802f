package org.tsbench.jvm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.tsbench.jvm.protocol.Errors;
import org.tsbench.jvm.protocol.Json;
import org.tsbench.jvm.protocol.Parent;
import org.tsbench.jvm.protocol.Progress;
import org.tsbench.jvm.protocol.Result;
import org.tsbench.jvm.stores.Engine;
import org.tsbench.jvm.workload.Micro;
import org.tsbench.jvm.workload.Span;
import org.tsbench.jvm.workload.TimeSeries;

/**
 * The JVM worker: a child of benchmark-storage that runs one job on one
 * JVM engine, speaking the Go child's protocol (docs/protocol.md): the job on stdin, progress on fd 4, status lines on fd 5,
 * the result on fd 3. Exit 0 when everything passed, 1 when the engine or a
 * check failed (the result says why), 2 for a job it cannot run.
 */
public final class Main {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_BAD_INPUT = 2;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 5 && args[0].equals(Forks.FLAG)) {
            System.exit(Forks.fork(args));
        }
        if (args.length == 0 || !args[0].equals("-child-job") || !Parent.connected()) {
            System.err.println("benchmark-storage-jvm: this is the JVM engines' worker, which benchmark-storage starts with pipes of its own; run benchmark-storage -engine jvm");
            System.exit(EXIT_BAD_INPUT);
        }
        System.exit(run(System.in, Parent.open(Parent.RESULT_FD), Parent.open(Parent.PROGRESS_FD),
                Parent.open(Parent.STATUS_FD), new Forks.Pipes(Parent.path(Parent.PROGRESS_FD), Parent.path(Parent.STATUS_FD)), null));
    }

    /** Does the job read from in; the rest is protocol.md's pipes, which forks write nothing to. */
    static int run(InputStream in, OutputStream result, OutputStream progressOut, OutputStream statusOut) throws Exception {
        return run(in, result, progressOut, statusOut, Forks.Pipes.NONE, null);
    }

    /**
     * Does the job read from in; the rest is protocol.md's pipes, and pipes the same ones by path for forks (Forks).
     * fork is this process's place among a benchmark's forks ("2/3"), in which the micro benchmarks run iterated;
     * null in the worker the parent started.
     */
    static int run(InputStream in, OutputStream result, OutputStream progressOut, OutputStream statusOut, Forks.Pipes pipes,
            String fork) throws Exception {
        Job job;
        byte[] raw;
        try {
            raw = in.readAllBytes();
            job = Job.read(new ByteArrayInputStream(raw));
        } catch (Exception e) {
            System.err.println("benchmark-storage-jvm: " + Errors.oneLine(e));
            return EXIT_BAD_INPUT;
        }
        Span.samplePeriod(job.memorySample());
        Engine engine = job.engine();
        Progress progress = new Progress(progressOut, statusOut, job.progress(), fork == null ? engine.name() : engine.name() + " fork " + fork,
                job.ts() != null ? "points" : "ops");
        // The forks' benchmarks, merged, replace the result's: they are JSON, not Bench records (Forks).
        ArrayNode forked = null;
        Result res = Result.header(engine.name(), engine.version(), job.options());
        List<String> errors = new ArrayList<>();
        try {
            res = res.described(engine.build() + "; " + jvm(), job.ts() != null ? job.ts() : job.micro());
            if (job.ts() != null) {
                TimeSeries ts = new TimeSeries(engine, job.settings(), Path.of(job.dir()), job.ts(), progress);
                try {
                    ts.run(res, errors);
                } finally {
                    res = res.withSteps(ts.steps());
                }
            } else if (fork == null && job.micro().forks() > 0) {
                forked = new Forks(job, Json.MAPPER.readTree(raw), pipes).run(errors);
            } else {
                Micro m = new Micro(engine, job.settings(), Path.of(job.dir()), job.micro(), progress, fork != null);
                res = res.withBenchmarks(m.run(errors));
            }
        } catch (Throwable t) {
            // An engine's own failure: into the result, its trace to stderr for the parent's log.
            t.printStackTrace();
            errors.add(Errors.oneLine(t));
        }
        if (!errors.isEmpty()) {
            res = res.withError(String.join("; ", errors));
        }
        ObjectNode doc = Json.MAPPER.valueToTree(res);
        if (forked != null) {
            doc.set("benchmarks", forked);
        }
        // In one write: the parent decodes only a complete document.
        result.write(Json.MAPPER.writeValueAsBytes(doc));
        result.close();
        return errors.isEmpty() ? EXIT_OK : EXIT_FAILED;
    }

    /** The JVM that ran: vendor, version, collectors and heap flags. */
    static String jvm() {
        String gcs = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining(", "));
        String heap = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-Xms") || a.startsWith("-Xmx") || a.startsWith("-XX:+Use"))
                .collect(Collectors.joining(" "));
        return "JVM " + System.getProperty("java.vm.vendor") + " " + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.runtime.version") + ", GC " + gcs + ", " + heap;
    }
}
