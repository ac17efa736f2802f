package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * What one time-series step cost, under Go's timeseries.Step names.
 *
 * @param settleNs always 0: the worker does not settle
 * @param latency null for a step that took no sample
 * @param verify null but for the queries
 * @param error null if the step passed
 */
// Jackson writes an unwrapped record's properties first: the order keeps the step's own in front.
@JsonPropertyOrder({"name", "label", "points", "time_ns", "wall_ns", "settle_ns", "points_per_sec", "us_per_point"})
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Step(
        @JsonProperty("name") String name,
        @JsonProperty("label") String label,
        @JsonProperty("points") long points,
        @JsonProperty("time_ns") long timeNs,
        @JsonProperty("wall_ns") long wallNs,
        @JsonProperty("settle_ns") long settleNs,
        @JsonProperty("points_per_sec") double pointsPerSec,
        @JsonProperty("us_per_point") double usPerPoint,
        @JsonUnwrapped Cost cost,
        @JsonProperty("logical_bytes") long logicalBytes,
        @JsonProperty("write_amp") double writeAmp,
        @JsonProperty("disk") Disk disk,
        @JsonProperty("open_fds") int openFds,
        @JsonProperty("latency") Latency latency,
        @JsonProperty("verify") Verification verify,
        @JsonProperty("error") String error,
        @JsonProperty("jvm") Jvm jvm) {
}
