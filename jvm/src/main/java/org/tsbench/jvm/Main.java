package org.tsbench.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

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
            System.err.println("benchmark-storage-jvm: " + oneLine(e));
            return EXIT_BAD_INPUT;
        }
        Span.samplePeriod(job.memorySample());
        Progress progress = new Progress(progressOut, statusOut, job.progress(), job.engine().name(),
                job.ts() != null ? "points" : "ops");
        Map<String, Object> res = new LinkedHashMap<>();
        res.put("engine", job.engine().name());
        res.put("version", job.engine().version());
        res.put("options", job.options());
        List<String> errors = new ArrayList<>();
        try {
            res.put("engine_description", job.engine().build() + "; " + jvm());
            if (job.ts() != null) {
                res.put("config", job.ts().json());
                new TimeSeries(job.engine(), job.settings(), Path.of(job.dir()), job.ts(), progress).run(res, errors);
            } else {
                res.put("config", job.micro().json());
                Micro m = new Micro(job.engine(), job.settings(), Path.of(job.dir()), job.micro(), progress);
                res.put("benchmarks", m.run(errors));
            }
        } catch (Throwable t) {
            // An engine's own failure: into the result, its trace to stderr for the parent's log.
            t.printStackTrace();
            errors.add(oneLine(t));
        }
        if (!errors.isEmpty()) {
            res.put("error", String.join("; ", errors));
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

    /** An exception's message on one line, its class when it has none. */
    static String oneLine(Throwable t) {
        String m = t.getMessage();
        if (m == null || m.isBlank()) {
            m = t.getClass().getSimpleName();
        } else if (!(t instanceof IllegalArgumentException || t instanceof IllegalStateException)) {
            m = t.getClass().getSimpleName() + ": " + m;
        }
        return m.replace('\n', ' ');
    }

    /** The job: what the worker reads of the Go job document; it ignores the rest. */
    record Job(Engine engine, String dir, String progress, Map<String, Object> options, long memorySample,
            Engine.Settings settings, Micro.Config micro, TimeSeries.Config ts) {

        static Job read(InputStream in) throws Exception {
            JsonNode j = Json.MAPPER.readTree(in);
            if (j == null || !j.isObject()) {
                throw new IllegalArgumentException("the job is not a JSON object");
            }
            String role = j.path("role").asText();
            if (!role.equals("run")) {
                throw new IllegalArgumentException("role " + role + ": the JVM worker only runs benchmarks");
            }
            // The engine and its options as the parent resolved them (engine.Spec):
            // the shared keys, and an engine's own under its name.
            Engine e = Engine.byName(j.path("engine").path("name").asText());
            String workload = j.path("workload").asText();
            JsonNode o = j.path("engine").path("options");
            @SuppressWarnings("unchecked")
            Map<String, Object> options = Json.MAPPER.convertValue(o, Map.class);
            // How often spans sample memory by kind (-memory-sample): absent for the default, negative for never.
            long memorySample = j.path("memory_sample_ns").asLong(0);
            if (workload.equals("ts")) {
                if (!e.ordered()) {
                    throw new IllegalArgumentException(e.name() + " has no ordered iteration: the time-series workload scans series in key order");
                }
                // The workload's settings, under its name, carry the sizes and the seed.
                JsonNode t = j.path("ts");
                TimeSeries.Config ts = new TimeSeries.Config(t.path("points").asLong(), t.path("series").asLong(),
                        t.path("batch").asLong(1000), t.path("seed").asLong());
                return new Job(e, j.path("dir").asText(), j.path("progress").asText(), options, memorySample,
                        settings(o, ts.points() + ts.points() / 2, TsKey.SIZE, 11), null, ts);
            }
            JsonNode m = j.path("micro");
            if (!workload.equals("micro") || !m.isObject()) {
                throw new IllegalArgumentException("workload " + workload + ": the JVM worker runs the micro benchmarks and the time-series workload");
            }
            // A benchmark of db_bench's, which the worker does not run, is reported
            // as not supported (Micro); the parent refuses a list of none it runs.
            List<String> names = new ArrayList<>();
            for (JsonNode n : m.path("benchmarks")) {
                names.add(n.asText());
            }
            Micro.Config cfg = new Micro.Config(names, m.path("num").asLong(), KeyType.of(m.path("key_type").asText()),
                    m.path("order").asText(), m.path("value_size").asInt(), m.path("compression_ratio").asDouble(),
                    m.path("batch").asInt(1000), m.path("seed").asLong());
            return new Job(e, j.path("dir").asText(), j.path("progress").asText(), options, memorySample,
                    settings(o, cfg.num(), cfg.keyType().size, cfg.valueSize()), cfg, null);
        }

        /** What the engine is opened with: the job's options, and the entries Chronicle Map is sized for. */
        private static Engine.Settings settings(JsonNode o, long entries, int keySize, int valueSize) {
            return new Engine.Settings(o.path("sync").asText().equals("batch"),
                    o.path("cache_size").asLong(64 << 20), o.path("write_buffer_size").asLong(64 << 20),
                    !o.path("disable_compression").asBoolean(), o.path("lmdbjava").path("buffer").asText("bytebuffer"),
                    entries, keySize, valueSize);
        }
    }
}
