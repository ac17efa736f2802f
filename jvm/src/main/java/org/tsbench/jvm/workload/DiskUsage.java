package org.tsbench.jvm.workload;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.tsbench.jvm.protocol.Disk;

/**
 * A directory's footprint as Go's internal/diskusage measures it: used
 * (allocated bytes capped at each file's length), actual (allocated) and
 * apparent (lengths) bytes, over its regular files. The allocated blocks
 * come from find(1), since Java's file attributes lack st_blocks.
 */
final class DiskUsage {
    private DiskUsage() {
    }

    static Disk measure(Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("find", dir.toString(), "-type", "f", "-printf", "%b %s\\n")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        // A file an engine deletes during the walk makes find fail; the rest counts, as in Go.
        p.waitFor();
        long used = 0, actual = 0, apparent = 0, files = 0;
        for (String line : out.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(" ");
            long alloc = Long.parseLong(f[0]) * 512, size = Long.parseLong(f[1]);
            used += Math.min(alloc, size);
            actual += alloc;
            apparent += size;
            files++;
        }
        return new Disk(used, actual, apparent, files);
    }
}
