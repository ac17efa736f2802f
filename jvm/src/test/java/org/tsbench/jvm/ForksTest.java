package org.tsbench.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tsbench.jvm.protocol.Json;
import org.tsbench.jvm.stores.Engine;
import org.tsbench.jvm.workload.KeyType;
import org.tsbench.jvm.workload.MicroConfig;

/** How Forks merges the measured iterations of a benchmark's forks into one benchmark. */
class ForksTest {
    private static final MicroConfig CFG = new MicroConfig(List.of("readKey"), 1000, KeyType.INT4, "seq", 100, 1, 1000,
            1, 2, 1, 2);

    private static Forks forks() {
        Job job = new Job(Engine.byName("lmdbjava"), "", "", Map.of(), 0, null, CFG, null);
        return new Forks(job, Json.MAPPER.createObjectNode(), Forks.Pipes.NONE);
    }

    private static JsonNode iteration(double us, String setup) throws Exception {
        ObjectNode b = (ObjectNode) Json.MAPPER.readTree(
                "{\"name\":\"readKey\",\"ops\":1000,\"bytes\":104000,\"time_ns\":" + (long) (us * 1000 * 1000)
                        + ",\"wall_ns\":5000000,\"us_per_op\":" + us + ",\"cpu_user_ns\":" + (long) (us * 100) + "}");
        if (setup != null) {
            b.put("setup", setup);
        }
        return b;
    }

    @Test
    void mergesIterationsOfAllForks() throws Exception {
        // Two forks of two iterations, fork after fork.
        List<JsonNode> its = List.of(iteration(1, "loaded"), iteration(2, null), iteration(3, "loaded"), iteration(4, null));
        ObjectNode b = forks().merge("readKey", its, 2);
        assertEquals(4000, b.get("ops").asLong());
        assertEquals(416000, b.get("bytes").asLong());
        assertEquals(10_000_000, b.get("time_ns").asLong());
        assertEquals(20_000_000, b.get("wall_ns").asLong());
        assertEquals(2.5, b.get("us_per_op").asDouble(), 1e-12);
        assertEquals(400_000, b.get("ops_per_sec").asDouble(), 1e-6);
        assertEquals(Json.MAPPER.readTree("[1.0,2.0,3.0,4.0]"), b.get("iterations_us_per_op"));
        assertEquals(2, b.get("forks").asInt());
        assertEquals("loaded", b.get("setup").asText());
        // The rest is the last iteration's.
        assertEquals(400, b.get("cpu_user_ns").asLong());
    }

    @Test
    void noIterationIsUnmeasured() throws Exception {
        ObjectNode b = forks().merge("readKey", List.of(), 2);
        assertEquals(0, b.get("ops").asLong());
        assertFalse(b.has("us_per_op"));
        assertFalse(b.has("iterations_us_per_op"));
        assertEquals(4, b.get("key_size").asInt());
    }
}
