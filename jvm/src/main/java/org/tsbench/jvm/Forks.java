package org.tsbench.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tsbench.jvm.protocol.Bench;
import org.tsbench.jvm.protocol.Errors;
import org.tsbench.jvm.protocol.Json;
import org.tsbench.jvm.workload.Micro;
import org.tsbench.jvm.workload.MicroConfig;

/**
 * The micro benchmarks measured as JMH measures them (micro.Config.Forks): the worker the parent started runs
 * each benchmark in cfg.forks fresh JVMs, one after the other, each started with this JVM's own command line and
 * running that benchmark alone, iterated (Micro: its warmup iterations, then its measured ones), so that no
 * benchmark inherits what the JIT and the heap learned from another. A fork writes its progress to the parent's
 * pipes itself, by this worker's descriptors' paths, and its result to a file, which this worker reads; the
 * measured iterations of all forks become one benchmark of the result.
 */
final class Forks {
    /** The argument that makes Main a fork: -fork K/F RESULT PROGRESS STATUS. */
    static final String FLAG = "-fork";

    /** The paths of the parent's progress and status pipes, which a fork opens; NONE discards its progress. */
    record Pipes(String progress, String status) {
        static final Pipes NONE = new Pipes("/dev/null", "/dev/null");
    }

    private final Job job;
    private final JsonNode raw;
    private final Pipes pipes;

    Forks(Job job, JsonNode raw, Pipes pipes) {
        this.job = job;
        this.raw = raw;
        this.pipes = pipes;
    }

    /** Runs every benchmark in its forks: the merged benchmarks, as the result's JSON; each failure goes to errors. */
    ArrayNode run(List<String> errors) throws Exception {
        MicroConfig cfg = job.micro();
        ArrayNode out = Json.MAPPER.createArrayNode();
        for (String name : cfg.benchmarks()) {
            Bench not = Micro.unsupported(job.engine(), cfg, name);
            if (not != null) {
                out.add(Json.MAPPER.valueToTree(not));
                continue;
            }
            List<JsonNode> its = new ArrayList<>();
            String error = null;
            for (int k = 1; k <= cfg.forks() && error == null; k++) {
                error = fork(name, k, its);
            }
            ObjectNode b = merge(name, its, cfg.forks());
            if (error != null) {
                b.put("error", error);
                errors.add(name + ": " + error);
            }
            out.add(b);
        }
        return out;
    }

    /** Runs fork k of benchmark name, adding its measured iterations to its: its error, null if it passed. */
    private String fork(String name, int k, List<JsonNode> its) throws Exception {
        String place = k + "/" + job.micro().forks();
        ObjectNode j = raw.deepCopy();
        ((ObjectNode) j.get("micro")).set("benchmarks", Json.MAPPER.createArrayNode().add(name));
        // Beside the engine's directory, in the run's, which the parent removes even when this
        // worker is killed before its finally runs.
        Path result = Files.createTempFile(Path.of(job.dir()).toAbsolutePath().getParent(), "fork", ".json");
        try {
            List<String> cmd = new ArrayList<>();
            cmd.add(ProcessHandle.current().info().command().orElse("java"));
            cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), FLAG, place,
                    result.toString(), pipes.progress(), pipes.status()));
            // Its stdout and stderr are the worker's, which the parent logs.
            Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(Json.MAPPER.writeValueAsBytes(j));
            }
            int status = p.waitFor();
            JsonNode res = Files.size(result) > 0 ? Json.MAPPER.readTree(result.toFile()) : null;
            if (res == null) {
                return "fork " + place + " exited with status " + status + " and no result (its messages are in the worker's log)";
            }
            for (JsonNode b : res.path("benchmarks")) {
                its.add(b);
            }
            return res.hasNonNull("error") ? "fork " + place + ": " + res.get("error").asText() : null;
        } finally {
            Files.deleteIfExists(result);
        }
    }

    /**
     * The measured iterations of a benchmark, all forks', as one benchmark (Go's micro.Bench): µs/op the mean of
     * the iterations', listed in iterations_us_per_op, which the parent turns into the error; ops, bytes, engine
     * and wall time their sums; the other figures the last iteration's; the setup the first's.
     */
    ObjectNode merge(String name, List<JsonNode> its, int forks) {
        if (its.isEmpty()) {
            MicroConfig cfg = job.micro();
            ObjectNode b = Json.MAPPER.valueToTree(Bench.unmeasured(name, cfg.keyType().size, cfg.valueSize(), null, null));
            b.put("forks", forks);
            return b;
        }
        ObjectNode b = its.get(its.size() - 1).deepCopy();
        ArrayNode us = b.putArray("iterations_us_per_op");
        long ops = 0, bytes = 0, time = 0, wall = 0;
        double sum = 0;
        String setup = null;
        for (JsonNode it : its) {
            ops += it.path("ops").asLong();
            bytes += it.path("bytes").asLong();
            time += it.path("time_ns").asLong();
            wall += it.path("wall_ns").asLong();
            if (it.hasNonNull("us_per_op")) {
                us.add(it.get("us_per_op").asDouble());
                sum += it.get("us_per_op").asDouble();
            }
            if (setup == null && it.hasNonNull("setup")) {
                setup = it.get("setup").asText();
            }
        }
        b.put("ops", ops).put("bytes", bytes).put("time_ns", time).put("wall_ns", wall).put("forks", forks);
        if (setup != null) {
            b.put("setup", setup);
        }
        if (us.isEmpty() || time == 0) {
            b.remove(List.of("us_per_op", "ops_per_sec", "mb_per_sec", "iterations_us_per_op"));
            return b;
        }
        double sec = time / 1e9;
        b.put("us_per_op", sum / us.size()).put("ops_per_sec", ops / sec).put("mb_per_sec", bytes / 1e6 / sec);
        return b;
    }

    /** Main of a fork: runs the job on stdin with Main.run, iterated, and exits with its status. */
    static int fork(String[] args) throws Exception {
        // A fork outlives no worker: the parent stops a run by stopping the worker.
        ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> Runtime.getRuntime().halt(Main.EXIT_FAILED)));
        try (OutputStream result = new FileOutputStream(args[2]); OutputStream progress = new FileOutputStream(args[3]);
                OutputStream status = new FileOutputStream(args[4])) {
            return Main.run(System.in, result, progress, status, Pipes.NONE, args[1]);
        } catch (Exception e) {
            System.err.println("benchmark-storage-jvm fork: " + Errors.oneLine(e));
            return Main.EXIT_FAILED;
        }
    }
}
