package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a timed part cost the whole process, under Go's harness.Cost
 * names; steps and benchmarks embed it flat (@JsonUnwrapped), as Go does,
 * and keep its wall time themselves.
 *
 * @param io null when /proc/self/io is unreadable
 * @param memory null when the job turned sampling off, or no sample was taken
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Cost(
        @JsonProperty("cpu_user_ns") long cpuUserNs,
        @JsonProperty("cpu_sys_ns") long cpuSysNs,
        @JsonProperty("io") Io io,
        @JsonProperty("peak_rss_bytes") long peakRssBytes,
        @JsonProperty("memory") MemoryPeaks memory) {

    /** The storage traffic the OS charged to the process, under Go's measure.IO names. */
    public record Io(
            @JsonProperty("read_bytes") long readBytes,
            @JsonProperty("write_bytes") long writeBytes,
            @JsonProperty("cancelled_write_bytes") long cancelledWriteBytes) {
    }

    /** Each kind of resident memory at its sampled peak, under Go's measure.MemoryPeaks names. */
    public record MemoryPeaks(
            @JsonProperty("peak_private_bytes") long privateBytes,
            @JsonProperty("peak_file_bytes") long fileBytes,
            @JsonProperty("peak_shmem_bytes") long shmemBytes,
            @JsonProperty("peak_go_bytes") long goBytes,
            @JsonProperty("samples") int samples) {
    }
}
