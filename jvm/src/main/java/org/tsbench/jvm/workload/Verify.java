package org.tsbench.jvm.workload;

import org.tsbench.jvm.protocol.Verification;

/**
 * What a read step returned against what it expected, counted as it
 * reads: the Verification the result records, while it is still counting.
 */
final class Verify {
    long expected;
    long read;
    long missing;
    long unexpected;
    long wrong;
    String checksum;
    String first;

    Verify(long expected) {
        this.expected = expected;
    }

    /** Describes a problem, if it is the first. */
    void problem(String what) {
        if (first == null) {
            first = what;
        }
    }

    Verification verification() {
        return new Verification(expected, read, missing, unexpected, wrong, checksum, first);
    }
}
