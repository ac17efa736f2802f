package org.tsbench.jvm.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.tsbench.jvm.Fixtures;

/**
 * The generators against workload/micro/testdata/vectors.json, which Go's
 * TestVectors writes and checks: keys, values, orders and seeds must be
 * bit-identical to Go's, or the two languages' engines get different data.
 */
class VectorsTest {
    private static final HexFormat HEX = HexFormat.of();

    private static JsonNode vectors() throws Exception {
        return Fixtures.read(Fixtures.repo().resolve("workload/micro/testdata/vectors.json"));
    }

    @Test
    void keys() throws Exception {
        int n = 0;
        for (JsonNode k : vectors().get("keys")) {
            KeyType t = KeyType.of(k.get("type").asText());
            byte[] b = new byte[t.size];
            t.put(b, 0, k.get("index").asLong());
            assertEquals(k.get("key_hex").asText(), HEX.formatHex(b), t.id + " " + k.get("index"));
            n++;
        }
        assertEquals(true, n > 20);
    }

    @Test
    void values() throws Exception {
        for (JsonNode v : vectors().get("values")) {
            Values vals = new Values(v.get("size").asInt(), v.get("ratio").asDouble(), Long.parseUnsignedLong(v.get("seed").asText()));
            CRC32 crc = new CRC32();
            crc.update(vals.pool);
            assertEquals(v.get("pool_crc32").asLong(), crc.getValue(), "pool of " + v);
            for (JsonNode e : v.get("entries")) {
                int off = vals.offset(e.get("index").asLong(), e.get("gen").asLong());
                int len = Math.min(vals.size, 64);
                assertEquals(e.get("value_hex").asText(), HEX.formatHex(vals.pool, off, off + len), e.toString());
            }
        }
    }

    @Test
    void permutations() throws Exception {
        for (JsonNode p : vectors().get("permutations")) {
            long n = p.get("n").asLong();
            Permutation perm = p.get("random").asBoolean() ? Permutation.shuffled(n, p.get("seed").asLong()) : Permutation.sequential(n);
            int i = 0;
            for (JsonNode want : p.get("first_positions")) {
                assertEquals(want.asLong(), perm.at(i), "n " + n + " position " + i);
                i++;
            }
        }
    }

    @Test
    void seeds() throws Exception {
        for (JsonNode s : vectors().get("seeds")) {
            Micro m = new Micro(null, null, null,
                    new MicroConfig(java.util.List.of(), 1, KeyType.INT4, "seq", 1, 1, 1, s.get("seed").asLong(), 0, 0, 0), null, false);
            long got = 0;
            for (long r = 0; r < s.get("run").asLong(); r++) {
                got = m.seed(s.get("benchmark").asText());
            }
            assertEquals(Long.parseUnsignedLong(s.get("got").asText()), got, s.toString());
        }
    }

    @Test
    void hashes() throws Exception {
        for (JsonNode h : vectors().get("hashes")) {
            int len = h.get("len").asInt(), piece = h.get("piece").asInt();
            byte[] in = new byte[len];
            for (int i = 0; i < len; i++) {
                in[i] = (byte) i;
            }
            CRC32 crc = new CRC32();
            Xxh64 x = new Xxh64();
            for (int off = 0; off < len; off += piece) {
                int k = Math.min(piece, len - off);
                crc.update(in, off, k);
                x.update(in, off, k);
            }
            assertEquals(h.get("crc32").asLong(), crc.getValue(), h.toString());
            assertEquals(Long.parseUnsignedLong(h.get("xxh64").asText()), x.digest(), h.toString());
        }
    }
}
