package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A directory's footprint over its regular files, under Go's diskusage.Usage names. */
public record Disk(
        @JsonProperty("used_bytes") long usedBytes,
        @JsonProperty("actual_bytes") long actualBytes,
        @JsonProperty("apparent_bytes") long apparentBytes,
        @JsonProperty("files") long files) {
}
