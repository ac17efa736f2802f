package org.tsbench.jvm.stores;

import java.nio.file.Path;
import java.util.Map;
import org.fusesource.leveldbjni.JniDBFactory;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

/** LevelDBJNI (fusesource), the LevelDB its jar bundles, through its byte[] API. */
final class LevelDbJniStore implements Store {
    private final DB db;
    private final WriteOptions wo;

    private LevelDbJniStore(Path dir, Engine.Settings s) throws Exception {
        Options o = new Options().createIfMissing(true)
                .cacheSize(s.cacheSize())
                .writeBufferSize((int) Math.min(s.writeBufferSize(), Integer.MAX_VALUE))
                .compressionType(s.compression() ? CompressionType.SNAPPY : CompressionType.NONE);
        db = JniDBFactory.factory.open(dir.toFile(), o);
        wo = new WriteOptions().sync(s.sync());
    }

    static Store open(Path dir, Engine.Settings s) throws Exception {
        return new LevelDbJniStore(dir, s);
    }

    @Override
    public Batch batch() {
        return new Batch() {
            private WriteBatch b = db.createWriteBatch();

            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) {
                b.put(Bytes.slice(k, koff, klen), Bytes.slice(v, voff, vlen));
            }

            public void delete(byte[] k) {
                b.delete(k);
            }

            public void commit() throws Exception {
                db.write(b, wo);
                b.close();
                b = db.createWriteBatch();
            }

            public void close() throws Exception {
                b.close();
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        return Bytes.copy(db.get(key), dst, 0);
    }

    /**
     * Its iterator is a Java iterator: the current entry is peekNext(), and
     * prev() returns the entry before it, so the reverse walk asks hasPrev().
     */
    @Override
    public Cursor cursor() {
        DBIterator it = db.iterator();
        return new Cursor() {
            private Map.Entry<byte[], byte[]> e;

            private boolean here() {
                e = it.hasNext() ? it.peekNext() : null;
                return e != null;
            }

            public boolean first() {
                it.seekToFirst();
                return here();
            }

            public boolean last() {
                it.seekToLast();
                return here();
            }

            public boolean next() {
                it.next();
                return here();
            }

            public boolean prev() {
                if (!it.hasPrev()) {
                    e = null;
                    return false;
                }
                it.prev();
                return here();
            }

            public boolean seek(byte[] key) {
                it.seek(key);
                return here();
            }

            public int key(byte[] dst, int off) {
                return Bytes.copy(e.getKey(), dst, off);
            }

            public int value(byte[] dst, int off) {
                return Bytes.copy(e.getValue(), dst, off);
            }

            public void close() throws Exception {
                it.close();
            }
        };
    }

    @Override
    public void compact() {
        ((org.fusesource.leveldbjni.internal.JniDB) db).compactRange(null, null);
    }

    @Override
    public void close() throws Exception {
        db.close();
    }
}
