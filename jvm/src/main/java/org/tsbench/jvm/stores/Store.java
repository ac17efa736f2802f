package org.tsbench.jvm.stores;

/**
 * One open key-value store of a JVM engine: what the benchmarks call, in
 * the shape of Go's engine.Engine. Keys and values are copied in and out of
 * caller-owned arrays, the same one copy for every engine whatever buffers
 * its API takes, so that no engine's reads are charged an allocation
 * another's are not.
 */
public interface Store extends AutoCloseable {
    /** A write batch, committed atomically where the engine has transactions. */
    interface Batch extends AutoCloseable {
        void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) throws Exception;

        void delete(byte[] k) throws Exception;

        /** Commits what was put and starts a new, empty batch. */
        void commit() throws Exception;

        @Override
        void close() throws Exception;
    }

    /** An iterator over the whole store in key order. */
    interface Cursor extends AutoCloseable {
        boolean first() throws Exception;

        boolean last() throws Exception;

        boolean next() throws Exception;

        boolean prev() throws Exception;

        /** Moves to the first key at or after key. */
        boolean seek(byte[] key) throws Exception;

        /** Copies the current key to dst at off and returns its length. */
        int key(byte[] dst, int off);

        /** Copies the current value to dst at off and returns its length. */
        int value(byte[] dst, int off);

        @Override
        void close() throws Exception;
    }

    Batch batch() throws Exception;

    /** Copies key's value to dst and returns its length, or -1 if the key is absent. */
    int get(byte[] key, byte[] dst) throws Exception;

    /** An iterator, or null for an engine without ordered iteration. */
    Cursor cursor() throws Exception;

    /**
     * Deletes the keys in [start, end): by default found with a cursor,
     * then deleted in one batch, as Go's engines without a native range
     * delete do.
     */
    default void deleteRange(byte[] start, byte[] end) throws Exception {
        java.util.List<byte[]> keys = new java.util.ArrayList<>();
        byte[] k = new byte[511];
        try (Cursor c = cursor()) {
            for (boolean ok = c.seek(start); ok; ok = c.next()) {
                int n = c.key(k, 0);
                if (java.util.Arrays.compareUnsigned(k, 0, n, end, 0, end.length) >= 0) {
                    break;
                }
                keys.add(java.util.Arrays.copyOf(k, n));
            }
        }
        try (Batch b = batch()) {
            for (byte[] key : keys) {
                b.delete(key);
            }
            b.commit();
        }
    }

    /** Compacts the whole key space, as Go's Engine.Compact(nil, nil). */
    void compact() throws Exception;

    @Override
    void close() throws Exception;
}
