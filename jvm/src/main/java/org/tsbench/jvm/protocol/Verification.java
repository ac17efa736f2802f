package org.tsbench.jvm.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What a read step returned against what it expected, under Go's
 * harness.Verification names: a time-series query's record of its checks,
 * and a micro read's.
 *
 * @param checksum the CRC32 or XXH64 a hashing scan computed, in hex
 * @param first the first problem found
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Verification(
        @JsonProperty("expected") long expected,
        @JsonProperty("read") long read,
        @JsonProperty("missing") long missing,
        @JsonProperty("unexpected") long unexpected,
        @JsonProperty("wrong") long wrong,
        @JsonProperty("checksum") String checksum,
        @JsonProperty("first_problem") String first) {

    /** Whether the reads returned what was expected and nothing else, as Go's Verification.OK. */
    public boolean ok() {
        return missing == 0 && unexpected == 0 && wrong == 0 && read == expected && first == null;
    }

    /** The counts, for an error message; what names what was read ("points", "entries"). */
    public String summary(String what) {
        return "read " + read + " of " + expected + " expected " + what + ": " + missing + " missing, " + unexpected
                + " unexpected, " + wrong + " wrong; first: " + (first == null ? "" : first);
    }
}
