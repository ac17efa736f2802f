package org.tsbench.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tsbench.jvm.protocol.Json;
import org.tsbench.jvm.stores.Engine;

/**
 * The worker against the protocol's fixtures (cmd/benchmark-storage/
 * testdata/protocol), which the Go tests check the parent against: the job
 * the parent writes, the status lines it reads, the result it decodes.
 * -Dtsbench.update=true rewrites result-micro.json from this run.
 */
class ProtocolTest {
    @TempDir
    Path dir;

    /** Runs the job fixture and checks the result's keys against the result fixture (or rewrites it). */
    private Fixtures.Outcome runFixture(String job, String result) throws Exception {
        Fixtures.Outcome o = Fixtures.run(Fixtures.read(Fixtures.protocol(job)), dir.resolve("mvstore"));
        assertEquals(Main.EXIT_OK, o.status(), new String(o.result()));
        JsonNode res = o.json();
        Path fixture = Fixtures.protocol(result);
        if (Boolean.getBoolean("tsbench.update")) {
            Fixtures.write(fixture, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(res));
        }
        TreeSet<String> want = Fixtures.keyPaths(Fixtures.read(fixture), "");
        assertEquals(want, Fixtures.keyPaths(res, ""), "the result's keys differ from " + fixture);
        return o;
    }

    /**
     * Each step or benchmark has memory by kind, as a Go engine's: sampled at
     * least once (at its start and end) and some private memory, which every
     * process has.
     */
    private static void checkMemory(JsonNode items) {
        assertTrue(items.size() > 0, items.toString());
        for (JsonNode it : items) {
            JsonNode m = it.get("memory");
            assertNotNull(m, it.get("name") + " has no memory");
            assertTrue(m.get("samples").asInt() >= 1, it.get("name") + ": " + m);
            assertTrue(m.get("peak_private_bytes").asLong() > 0, it.get("name") + ": " + m);
            assertEquals(0, m.get("peak_go_bytes").asLong(), it.get("name") + ": " + m);
        }
    }

    /** The engines engines.json names, which the Go parent offers, are the worker's (both sorted). */
    @Test
    void engineNamesAgreeWithGo() throws Exception {
        List<String> go = new ArrayList<>();
        for (JsonNode n : Fixtures.read(Fixtures.protocol("engines.json"))) {
            go.add(n.asText());
        }
        assertEquals(go, Engine.ALL.stream().map(Engine::name).sorted().toList(), "the Go parent's JVM engines differ from Engine.ALL");
    }

    @Test
    void timeSeriesJob() throws Exception {
        Fixtures.Outcome o = runFixture("job-ts.json", "result-ts.json");
        JsonNode steps = o.json().get("steps");
        assertEquals(6, steps.size());
        assertEquals(6000, steps.get(1).get("verify").get("read").asLong());
        checkMemory(steps);
        assertTrue(o.progress().contains("mvstore: Compaction: done in "), o.progress());
        // After each step, the result so far on the status pipe.
        String last = o.status5().substring(o.status5().lastIndexOf("{\"step\""));
        assertEquals(6, Json.MAPPER.readTree(last).get("partial").get("steps").size(), last);
    }

    @Test
    void jobOfTheFixture() throws Exception {
        Fixtures.Outcome o = runFixture("job-micro.json", "result-micro.json");
        JsonNode res = o.json();
        assertEquals("mvstore", res.get("engine").asText());
        assertEquals(2000, res.get("benchmarks").get(1).get("verify").get("read").asLong());
        checkMemory(res.get("benchmarks"));

        TreeSet<String> statusKeys = Fixtures.keyPaths(Json.MAPPER.readTree(Files.readAllLines(Fixtures.protocol("status.jsonl")).get(0)), "");
        int lines = 0;
        for (String line : o.status5().split("\n")) {
            assertEquals(statusKeys, Fixtures.keyPaths(Json.MAPPER.readTree(line), ""), line);
            lines++;
        }
        assertTrue(lines >= 8, o.status5());
        assertTrue(o.progress().contains("mvstore: write 2k: started (2k ops)\n"), o.progress());
        assertTrue(o.progress().contains("mvstore: readCrc 2k: done in "), o.progress());
    }

    /** A negative memory_sample_ns (-memory-sample=-1s) turns the sampling off: no memory, as in Go. */
    @Test
    void noMemorySampling() throws Exception {
        ObjectNode job = (ObjectNode) Fixtures.read(Fixtures.protocol("job-micro.json"));
        job.put("memory_sample_ns", -1_000_000_000L);
        Fixtures.Outcome o = Fixtures.run(job, dir.resolve("mvstore"));
        assertEquals(Main.EXIT_OK, o.status(), new String(o.result()));
        JsonNode benchmarks = o.json().get("benchmarks");
        assertEquals(4, benchmarks.size());
        for (JsonNode b : benchmarks) {
            assertTrue(b.has("peak_rss_bytes") && !b.has("memory"), b.toString());
        }
    }

    @Test
    void refusesWhatItCannotRun() throws Exception {
        for (Map.Entry<String, String> e : Map.of("workload", "mixed", "role", "crash-writer", "engine", "rocksdb").entrySet()) {
            ObjectNode job = (ObjectNode) Fixtures.read(Fixtures.protocol("job-micro.json"));
            if (e.getKey().equals("engine")) {
                ((ObjectNode) job.get("engine")).put("name", e.getValue());
            } else {
                job.put(e.getKey(), e.getValue());
            }
            Fixtures.Outcome o = Fixtures.run(job, dir.resolve("x"));
            assertEquals(Main.EXIT_BAD_INPUT, o.status(), e.toString());
            assertEquals(0, o.result().length, e.toString());
            assertTrue(!Files.exists(dir.resolve("x")), e.toString());
        }
    }
}
