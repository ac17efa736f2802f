package org.tsbench.jvm.workload;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.tsbench.jvm.protocol.WorkloadConfig;
import java.util.List;

/**
 * The micro benchmarks to run and their entries, under Go's micro.Config names.
 *
 * @param forks fresh JVMs per benchmark (Forks), 0 for one JVM and one measured pass per benchmark
 * @param warmupIterations untimed passes per fork, with forks
 * @param iterations measured passes per fork, with forks
 */
public record MicroConfig(
        @JsonProperty("benchmarks") List<String> benchmarks,
        @JsonProperty("num") long num,
        @JsonProperty("key_type") KeyType keyType,
        @JsonProperty("order") String order,
        @JsonProperty("value_size") int valueSize,
        @JsonProperty("compression_ratio") double ratio,
        @JsonProperty("batch") int batch,
        @JsonProperty("seed") long seed,
        @JsonProperty("forks") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int forks,
        @JsonProperty("warmup_iterations") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int warmupIterations,
        @JsonProperty("iterations") @JsonInclude(JsonInclude.Include.NON_DEFAULT) int iterations) implements WorkloadConfig {

    /** The same benchmarks with another list of names. */
    public MicroConfig withBenchmarks(List<String> names) {
        return new MicroConfig(names, num, keyType, order, valueSize, ratio, batch, seed, forks, warmupIterations, iterations);
    }
}
