package org.tsbench.jvm.stores;

import java.nio.file.Path;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.Serializer;

/** MapDB's B-tree map in a memory-mapped file, without transactions (the report's setup). */
final class MapDbStore implements Store {
    private final DB db;
    private final BTreeMap<byte[], byte[]> map;

    private MapDbStore(Path dir) {
        db = DBMaker.fileDB(dir.resolve("mapdb").toFile()).fileMmapEnableIfSupported().make();
        map = db.treeMap("data", Serializer.BYTE_ARRAY, Serializer.BYTE_ARRAY).createOrOpen();
    }

    static Store open(Path dir, Engine.Settings s) {
        return new MapDbStore(dir);
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
                db.commit();
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
        return new IteratorCursor(map::entryIterator, map::descendingEntryIterator,
                k -> map.entryIterator(k, true, null, false), () -> { });
    }

    @Override
    public void compact() {
        db.getStore().compact();
    }

    @Override
    public void close() {
        db.close();
    }
}
