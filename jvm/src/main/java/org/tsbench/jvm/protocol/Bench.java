package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * What one micro benchmark measured, under Go's micro.Bench names. One
 * that measured nothing has its name, sizes, and setup or error alone.
 *
 * @param setup untimed preparation the benchmark needed, or why it did not run; null if none
 * @param usPerOp like opsPerSec and mbPerSec, null when nothing was timed
 * @param latency null without a sample, as latencyOf is
 * @param storage the store's footprint after a write; null for reads
 * @param verify null but for the reads
 * @param error null if the benchmark passed
 */
// Jackson writes an unwrapped record's properties first: the order keeps the benchmark's own in front.
@JsonPropertyOrder({"name", "ops", "key_size", "value_size", "setup", "time_ns", "wall_ns", "us_per_op", "ops_per_sec",
    "mb_per_sec", "bytes"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Bench(
        @JsonProperty("name") String name,
        @JsonProperty("ops") long ops,
        @JsonProperty("key_size") int keySize,
        @JsonProperty("value_size") int valueSize,
        @JsonProperty("setup") String setup,
        @JsonProperty("time_ns") Long timeNs,
        @JsonProperty("wall_ns") Long wallNs,
        @JsonProperty("us_per_op") Double usPerOp,
        @JsonProperty("ops_per_sec") Double opsPerSec,
        @JsonProperty("mb_per_sec") Double mbPerSec,
        @JsonProperty("bytes") Long bytes,
        @JsonUnwrapped Cost cost,
        @JsonProperty("latency") Latency latency,
        @JsonProperty("latency_of") String latencyOf,
        @JsonProperty("storage") Storage storage,
        @JsonProperty("jvm") Jvm jvm,
        @JsonProperty("verify") Verification verify,
        @JsonProperty("error") String error) {

    /** A benchmark not supported here (setup says why), or one that failed before it was measured (error says why). */
    public static Bench unmeasured(String name, int keySize, int valueSize, String setup, String error) {
        return new Bench(name, 0, keySize, valueSize, setup, null, null, null, null, null, null, null, null, null, null,
                null, null, error);
    }
}
