package org.tsbench.jvm.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.tsbench.jvm.Fixtures;

/** The time-series generator against workload/points/testdata/vectors.json, which Go's TestVectors checks too. */
class PointsTest {
    private static final HexFormat HEX = HexFormat.of();

    private static JsonNode vectors() throws Exception {
        return Fixtures.read(Fixtures.repo().resolve("workload/points/testdata/vectors.json"));
    }

    @Test
    void points() throws Exception {
        for (JsonNode p : vectors().get("points")) {
            Points g = new Points(p.get("series").asLong(), Long.parseUnsignedLong(p.get("seed").asText()));
            long i = p.get("index").asLong();
            byte[] key = new byte[TsKey.SIZE];
            g.key(key, 0, i);
            assertEquals(p.get("key_hex").asText(), HEX.formatHex(key), p.toString());
            long v = g.value(i + 1);
            assertEquals(p.get("value").asLong(), v, p.toString());
            byte[] enc = new byte[11];
            int n = Points.putValue(enc, 0, v);
            assertEquals(p.get("encoded_hex").asText(), HEX.formatHex(enc, 0, n), p.toString());
            assertEquals(n, Points.valueSize(v));
            assertEquals(v, Points.parseValue(enc, 0, n));
        }
    }

    @Test
    void counts() throws Exception {
        for (JsonNode c : vectors().get("counts")) {
            Points g = new Points(c.get("series").asLong(), 1);
            long lo = c.get("lo").asLong(), hi = c.get("hi").asLong(), s = c.get("s").asLong();
            assertEquals(c.get("count").asLong(), g.count(lo, hi, s), c.toString());
            assertEquals(c.get("first").asLong(), g.first(lo, s), c.toString());
            assertEquals(c.get("logical_bytes").asLong(), g.logicalBytes(lo, hi), c.toString());
        }
    }
}
