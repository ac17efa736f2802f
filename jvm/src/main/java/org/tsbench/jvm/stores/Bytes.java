package org.tsbench.jvm.stores;

import java.util.Arrays;

/** The array copies of the engines whose APIs take and give whole byte[]s. */
final class Bytes {
    private Bytes() {
    }

    /** b[off, off+len) as an array of its own, b itself when it is exactly that. */
    static byte[] slice(byte[] b, int off, int len) {
        return off == 0 && len == b.length ? b : Arrays.copyOfRange(b, off, off + len);
    }

    /** Copies src to dst at off and returns its length, or -1 for null. */
    static int copy(byte[] src, byte[] dst, int off) {
        if (src == null) {
            return -1;
        }
        System.arraycopy(src, 0, dst, off, src.length);
        return src.length;
    }
}
