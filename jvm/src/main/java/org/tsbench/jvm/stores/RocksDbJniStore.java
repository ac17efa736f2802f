package org.tsbench.jvm.stores;

import java.nio.file.Path;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * RocksDBJNI over the RocksDB library its jar bundles: the same release
 * library the Go rocksdb engine links, with the same shared options (block
 * cache, write buffer, Snappy, a 10-bit bloom filter).
 */
final class RocksDbJniStore implements Store {
    static {
        RocksDB.loadLibrary();
    }

    private final Options opts;
    private final LRUCache cache;
    private final RocksDB db;
    private final WriteOptions wo;

    private RocksDbJniStore(Path dir, Engine.Settings s) throws Exception {
        cache = new LRUCache(s.cacheSize());
        opts = new Options().setCreateIfMissing(true)
                .setWriteBufferSize(s.writeBufferSize())
                .setCompressionType(s.compression() ? CompressionType.SNAPPY_COMPRESSION : CompressionType.NO_COMPRESSION)
                .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(new BloomFilter(10)));
        db = RocksDB.open(opts, dir.toString());
        wo = new WriteOptions().setSync(s.sync());
    }

    static Store open(Path dir, Engine.Settings s) throws Exception {
        return new RocksDbJniStore(dir, s);
    }

    static String nativeVersion() {
        return RocksDB.rocksdbVersion().toString();
    }

    @Override
    public Batch batch() {
        return new Batch() {
            private final WriteBatch b = new WriteBatch();

            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) throws Exception {
                b.put(Bytes.slice(k, koff, klen), Bytes.slice(v, voff, vlen));
            }

            public void delete(byte[] k) throws Exception {
                b.delete(k);
            }

            public void commit() throws Exception {
                db.write(wo, b);
                b.clear();
            }

            public void close() {
                b.close();
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) throws Exception {
        int n = db.get(key, dst);
        return n == RocksDB.NOT_FOUND ? -1 : n;
    }

    @Override
    public Cursor cursor() {
        RocksIterator it = db.newIterator();
        return new Cursor() {
            public boolean first() {
                it.seekToFirst();
                return it.isValid();
            }

            public boolean last() {
                it.seekToLast();
                return it.isValid();
            }

            public boolean next() {
                it.next();
                return it.isValid();
            }

            public boolean prev() {
                it.prev();
                return it.isValid();
            }

            public boolean seek(byte[] key) {
                it.seek(key);
                return it.isValid();
            }

            public int key(byte[] dst, int off) {
                return Bytes.copy(it.key(), dst, off);
            }

            public int value(byte[] dst, int off) {
                return Bytes.copy(it.value(), dst, off);
            }

            public void close() throws Exception {
                it.status();
                it.close();
            }
        };
    }

    /** RocksDB's own range delete, as the Go rocksdb engine's. */
    @Override
    public void deleteRange(byte[] start, byte[] end) throws Exception {
        db.deleteRange(wo, start, end);
    }

    @Override
    public void compact() throws Exception {
        db.compactRange();
    }

    @Override
    public void close() {
        db.close();
        wo.close();
        opts.close();
        cache.close();
    }
}
