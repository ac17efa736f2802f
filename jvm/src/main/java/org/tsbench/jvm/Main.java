package org.tsbench.jvm;

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
        if (args.length == 0 || !args[0].equals("-child-job") || !Parent.connected()) {
            System.err.println("benchmark-storage-jvm: this is the JVM engines' worker, which benchmark-storage starts with pipes of its own; run benchmark-storage -engine jvm");
            System.exit(EXIT_BAD_INPUT);
        }
        System.exit(run(System.in, Parent.open(Parent.RESULT_FD), Parent.open(Parent.PROGRESS_FD),
                Parent.open(Parent.STATUS_FD)));
    }

    /** Does the job read from in; the rest is protocol.md's pipes. */
    static int run(InputStream in, OutputStream result, OutputStream progressOut, OutputStream statusOut) throws Exception {
        Job job;
        try {
            job = Job.read(in);
        } catch (Exception e) {
            System.err.println("benchmark-storage-jvm: " + Errors.oneLine(e));
            return EXIT_BAD_INPUT;
        }
        Span.samplePeriod(job.memorySample());
        Engine engine = job.engine();
        Progress progress = new Progress(progressOut, statusOut, job.progress(), engine.name(),
                job.ts() != null ? "points" : "ops");
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
            } else {
                Micro m = new Micro(engine, job.settings(), Path.of(job.dir()), job.micro(), progress);
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
        // In one write: the parent decodes only a complete document.
        result.write(Json.MAPPER.writeValueAsBytes(res));
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
