package org.tsbench.jvm.workload;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.tsbench.jvm.protocol.WorkloadConfig;

/**
 * The time-series workload's sizes and seed, under Go's timeseries.Config
 * names. Settle and reuse_iterator are Go's options the worker lacks,
 * recorded as off.
 */
public record TimeSeriesConfig(
        @JsonProperty("points") long points,
        @JsonProperty("series") long series,
        @JsonProperty("batch") long batch,
        @JsonProperty("seed") long seed,
        @JsonProperty("settle") boolean settle,
        @JsonProperty("reuse_iterator") boolean reuseIterator) implements WorkloadConfig {

    public TimeSeriesConfig(long points, long series, long batch, long seed) {
        this(points, series, batch, seed, false, false);
    }
}
