package org.tsbench.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tsbench.jvm.protocol.Json;
import org.tsbench.jvm.stores.Engine;
import org.tsbench.jvm.workload.KeyType;
import org.tsbench.jvm.workload.MicroConfig;
import org.tsbench.jvm.workload.TimeSeriesConfig;
import org.tsbench.jvm.workload.TsKey;

/**
 * The job: what the worker reads of the Go job document; it ignores the
 * rest. Options are the parent's own document, echoed back in the result.
 */
record Job(Engine engine, String dir, String progress, Map<String, Object> options, long memorySample,
        Engine.Settings settings, MicroConfig micro, TimeSeriesConfig ts) {

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
            TimeSeriesConfig ts = new TimeSeriesConfig(t.path("points").asLong(), t.path("series").asLong(),
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
        MicroConfig cfg = new MicroConfig(names, m.path("num").asLong(), KeyType.of(m.path("key_type").asText()),
                m.path("order").asText(), m.path("value_size").asInt(), m.path("compression_ratio").asDouble(),
                m.path("batch").asInt(1000), m.path("seed").asLong(), m.path("forks").asInt(0),
                m.path("warmup_iterations").asInt(0), m.path("iterations").asInt(0));
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
