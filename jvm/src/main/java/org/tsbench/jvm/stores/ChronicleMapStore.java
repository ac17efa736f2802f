package org.tsbench.jvm.stores;

import java.nio.file.Path;
import net.openhft.chronicle.map.ChronicleMap;

/**
 * Chronicle Map: an off-heap hash map persisted to a memory-mapped file.
 * It has no ordered iteration (cursor() is null) and no transactions: a
 * batch is its puts. Sized up front for the job's entries.
 */
final class ChronicleMapStore implements Store {
    private final ChronicleMap<byte[], byte[]> map;

    private ChronicleMapStore(Path dir, Engine.Settings s) throws Exception {
        map = ChronicleMap.of(byte[].class, byte[].class).name("data")
                .entries(Math.max(s.entries(), 1))
                .constantKeySizeBySample(new byte[s.keySize()])
                .constantValueSizeBySample(new byte[Math.max(s.valueSize(), 1)])
                .createPersistedTo(dir.resolve("chroniclemap").toFile());
    }

    static Store open(Path dir, Engine.Settings s) throws Exception {
        return new ChronicleMapStore(dir, s);
    }

    @Override
    public Batch batch() {
        return new Batch() {
            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) {
                map.put(Bytes.slice(k, koff, klen), Bytes.slice(v, voff, vlen));
            }

            public void delete(byte[] k) {
                map.remove(k);
            }

            public void commit() {
            }

            public void close() {
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        return Bytes.copy(map.get(key), dst, 0);
    }

    @Override
    public Cursor cursor() {
        return null;
    }

    /** Chronicle Map's entries live in fixed slots of a hash table: nothing to compact. */
    @Override
    public void compact() {
    }

    @Override
    public void close() {
        map.close();
    }
}
