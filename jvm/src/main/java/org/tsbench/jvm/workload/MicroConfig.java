package org.tsbench.jvm.workload;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.tsbench.jvm.protocol.WorkloadConfig;
import java.util.List;

/** The micro benchmarks to run and their entries, under Go's micro.Config names. */
public record MicroConfig(
        @JsonProperty("benchmarks") List<String> benchmarks,
        @JsonProperty("num") long num,
        @JsonProperty("key_type") KeyType keyType,
        @JsonProperty("order") String order,
        @JsonProperty("value_size") int valueSize,
        @JsonProperty("compression_ratio") double ratio,
        @JsonProperty("batch") int batch,
        @JsonProperty("seed") long seed) implements WorkloadConfig {
}
