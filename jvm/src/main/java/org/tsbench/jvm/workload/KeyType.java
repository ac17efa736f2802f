package org.tsbench.jvm.workload;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * How entry number i becomes a key, byte for byte as Go's micro.KeyType
 * (workload/micro/key.go): every type sorts in index order.
 */
public enum KeyType {
    INT4("int4", 4),
    STR16("str16", 16),
    TS24("ts24", TsKey.SIZE);

    /** How many consecutive entries share a series in TS24 (micro's seriesPoints). */
    static final int SERIES_POINTS = 1000;

    /** The key type's name, in the job and in JSON. */
    @JsonValue
    final String id;
    public final int size;

    KeyType(String id, int size) {
        this.id = id;
        this.size = size;
    }

    public static KeyType of(String id) {
        for (KeyType t : values()) {
            if (t.id.equals(id)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown key type " + id);
    }

    /** Writes key i into dst[off, off+size). */
    void put(byte[] dst, int off, long i) {
        switch (this) {
            case INT4 -> {
                dst[off] = (byte) (i >>> 24);
                dst[off + 1] = (byte) (i >>> 16);
                dst[off + 2] = (byte) (i >>> 8);
                dst[off + 3] = (byte) i;
            }
            case STR16 -> {
                for (int j = 15; j >= 0; j--) {
                    dst[off + j] = (byte) ('0' + i % 10);
                    i /= 10;
                }
            }
            case TS24 -> TsKey.put(dst, off, i / SERIES_POINTS,
                    TsKey.EPOCH + (i % SERIES_POINTS) * TsKey.INTERVAL, i + 1);
        }
    }
}
