package org.tsbench.jvm.stores;

import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;

/** H2's MVStore: a log-structured B-tree, one map of byte[] keys (unsigned order) and values. */
final class MvStoreStore implements Store {
    private final MVStore store;
    private final MVMap<byte[], byte[]> map;

    private MvStoreStore(Path dir, Engine.Settings s) {
        MVStore.Builder b = new MVStore.Builder().fileName(dir.resolve("mvstore").toString())
                .cacheSize((int) Math.max(1, s.cacheSize() >> 20)).autoCommitDisabled();
        if (s.compression()) {
            b = b.compress();
        }
        store = b.open();
        map = store.openMap("data", new MVMap.Builder<byte[], byte[]>()
                .keyType(ByteArrayDataType.INSTANCE).valueType(ByteArrayDataType.INSTANCE));
    }

    static Store open(Path dir, Engine.Settings s) {
        return new MvStoreStore(dir, s);
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
                store.commit();
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
        return new IteratorCursor(() -> entries(map.cursor(null)), () -> entries(map.cursor(null, null, true)),
                k -> entries(map.cursor(k)), () -> { });
    }

    private static Iterator<Map.Entry<byte[], byte[]>> entries(org.h2.mvstore.Cursor<byte[], byte[]> c) {
        return new Iterator<>() {
            public boolean hasNext() {
                return c.hasNext();
            }

            public Map.Entry<byte[], byte[]> next() {
                byte[] k = c.next();
                return new AbstractMap.SimpleImmutableEntry<>(k, c.getValue());
            }
        };
    }

    /** Rewrites the file's live chunks to its start, for up to a minute. */
    @Override
    public void compact() {
        store.compactFile(60_000);
    }

    @Override
    public void close() {
        store.close();
    }
}
