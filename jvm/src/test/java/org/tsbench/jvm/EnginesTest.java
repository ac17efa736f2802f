package org.tsbench.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tsbench.jvm.protocol.Json;
import org.tsbench.jvm.workload.Micro;

/** Every engine through every benchmark on a small store: every read must check out. */
class EnginesTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"lmdbjava", "lmdbjni", "lwjgl", "leveldbjni", "rocksdbjni", "mapdb", "mvstore", "xodus", "chroniclemap"})
    void allBenchmarks(String engine) throws Exception {
        JsonNode job = Fixtures.job(engine, Map.of("benchmarks", Micro.BENCHMARKS, "num", 3000, "key_type", "str16", "order", "random"));
        check(engine, Fixtures.run(job, dir.resolve(engine)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"bytebuffer", "agrona"})
    void lmdbjavaBuffers(String buffer) throws Exception {
        JsonNode job = Fixtures.job("lmdbjava", Map.of("benchmarks", Micro.BENCHMARKS, "num", 1500, "key_type", "int4", "order", "seq"));
        ((ObjectNode) job.get("engine").get("options")).set("lmdbjava", Json.MAPPER.valueToTree(Map.of("buffer", buffer)));
        Fixtures.Outcome o = Fixtures.run(job, dir.resolve(buffer));
        check("lmdbjava", o);
        assertEquals(buffer, o.json().get("options").get("lmdbjava").get("buffer").asText());
    }

    /** The time-series workload's six steps, every point verified. */
    @ParameterizedTest
    @ValueSource(strings = {"lmdbjava", "lmdbjni", "lwjgl", "leveldbjni", "rocksdbjni", "mapdb", "mvstore", "xodus"})
    void timeSeries(String engine) throws Exception {
        ObjectNode job = (ObjectNode) Fixtures.read(Fixtures.protocol("job-ts.json"));
        ((ObjectNode) job.get("engine")).put("name", engine);
        Fixtures.Outcome o = Fixtures.run(job, dir.resolve(engine));
        JsonNode res = o.json();
        assertEquals(Main.EXIT_OK, o.status(), res.toString());
        assertFalse(res.has("error"), res.path("error").asText());
        assertEquals(6, res.get("steps").size());
        long n = job.get("ts").get("points").asLong();
        long[] reads = {0, n, 0, 0, n - n / 2, 0};
        for (int i = 0; i < 6; i++) {
            JsonNode st = res.get("steps").get(i);
            assertFalse(st.has("error"), st.toString());
            if (reads[i] > 0) {
                assertEquals(reads[i], st.get("verify").get("read").asLong(), st.get("name") + " " + st.get("verify"));
            }
        }
    }

    private static void check(String engine, Fixtures.Outcome o) throws Exception {
        JsonNode res = o.json();
        assertEquals(Main.EXIT_OK, o.status(), res.toString());
        assertFalse(res.has("error"), res.path("error").asText());
        List<String> names = Micro.BENCHMARKS;
        assertEquals(names.size(), res.get("benchmarks").size());
        for (JsonNode b : res.get("benchmarks")) {
            String name = b.get("name").asText();
            if (engine.equals("chroniclemap") && Micro.ORDERED.contains(name)) {
                assertEquals(0, b.get("ops").asLong(), name);
                assertTrue(b.get("setup").asText().contains("not supported: unordered"), name);
                continue;
            }
            long num = res.get("config").get("num").asLong();
            assertEquals(num, b.get("ops").asLong(), name);
            if (!name.equals("write")) {
                JsonNode v = b.get("verify");
                assertEquals(num, v.get("read").asLong(), name + " " + v);
                assertEquals(0, v.get("wrong").asLong() + v.get("missing").asLong(), name + " " + v);
            }
        }
    }
}
