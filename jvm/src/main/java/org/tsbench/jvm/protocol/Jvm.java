package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How the JVM ran a step or benchmark, under Go's harness.JVM names: the
 * operations of the untimed warmup pass before the measured one, and the
 * collections during the measured one.
 */
public record Jvm(
        @JsonProperty("warmup_ops") long warmupOps,
        @JsonProperty("gc_count") long gcCount,
        @JsonProperty("gc_ns") long gcNs) {
}
