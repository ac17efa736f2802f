package org.tsbench.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import org.tsbench.jvm.protocol.Json;

/** The files the Go tests share with these: test vectors and the protocol's fixtures. */
public final class Fixtures {
    private Fixtures() {
    }

    /** The repository's root, which the pom passes. */
    public static Path repo() {
        return Path.of(System.getProperty("tsbench.repo", ".."));
    }

    static Path protocol(String name) {
        return repo().resolve("cmd/benchmark-storage/testdata/protocol").resolve(name);
    }

    public static JsonNode read(Path p) throws Exception {
        return Json.MAPPER.readTree(p.toFile());
    }

    /** What the worker wrote to each pipe for one job, and its exit status. */
    record Outcome(int status, byte[] result, String progress, String status5) {
        JsonNode json() throws Exception {
            return Json.MAPPER.readTree(result);
        }
    }

    /** Runs the job as the parent would start the worker, in dir. */
    static Outcome run(JsonNode job, Path dir) throws Exception {
        ((com.fasterxml.jackson.databind.node.ObjectNode) job).put("dir", dir.toString());
        ByteArrayOutputStream res = new ByteArrayOutputStream(), prog = new ByteArrayOutputStream(), st = new ByteArrayOutputStream();
        int status = Main.run(new ByteArrayInputStream(Json.MAPPER.writeValueAsBytes(job)), res, prog, st);
        return new Outcome(status, res.toByteArray(), prog.toString(StandardCharsets.UTF_8), st.toString(StandardCharsets.UTF_8));
    }

    /** The job of job-micro.json for engine, with the given micro settings changed. */
    static JsonNode job(String engine, Map<String, Object> micro) throws Exception {
        JsonNode j = read(protocol("job-micro.json"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) j.get("engine")).put("name", engine);
        com.fasterxml.jackson.databind.node.ObjectNode m = (com.fasterxml.jackson.databind.node.ObjectNode) j.get("micro");
        for (Map.Entry<String, Object> e : micro.entrySet()) {
            m.set(e.getKey(), Json.MAPPER.valueToTree(e.getValue()));
        }
        return j;
    }

    /** The object keys in v as dotted paths; array elements count as one. */
    static TreeSet<String> keyPaths(JsonNode v, String prefix) {
        TreeSet<String> out = new TreeSet<>();
        if (v.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
                Map.Entry<String, JsonNode> e = it.next();
                out.add(prefix + e.getKey());
                out.addAll(keyPaths(e.getValue(), prefix + e.getKey() + "."));
            }
        } else if (v.isArray()) {
            for (JsonNode e : v) {
                out.addAll(keyPaths(e, prefix));
            }
        }
        return out;
    }

    static void write(Path p, byte[] b) throws Exception {
        Files.write(p, b);
    }
}
