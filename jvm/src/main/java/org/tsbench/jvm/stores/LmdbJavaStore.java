package org.tsbench.jvm.stores;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.IntFunction;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import org.lmdbjava.BufferProxy;
import org.lmdbjava.CopyFlags;
import org.lmdbjava.ByteBufferProxy;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.DirectBufferProxy;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Meta;
import org.lmdbjava.GetOp;
import org.lmdbjava.Txn;

/**
 * LmdbJava over the LMDB its jar bundles, with the report's two buffer
 * kinds: ByteBuffer (its PROXY_OPTIMAL, Unsafe access) or Agrona's
 * DirectBuffer (-set lmdbjava.buffer=agrona).
 */
final class LmdbJavaStore<T> implements Store {
    /** The memory map: virtual, so generous; the file grows only with data. */
    static final long MAP_SIZE = 1L << 36;

    /** How one buffer kind is made and read. */
    private record Kind<T>(BufferProxy<T> proxy, IntFunction<T> alloc, Filler<T> fill, Copier<T> copy) {
    }

    private interface Filler<T> {
        T fill(T buf, byte[] src, int off, int len);
    }

    private interface Copier<T> {
        int copy(T buf, byte[] dst, int off);
    }

    private static final Kind<ByteBuffer> BYTE_BUFFER = new Kind<>(ByteBufferProxy.PROXY_OPTIMAL,
            ByteBuffer::allocateDirect,
            (b, src, off, len) -> {
                b.clear();
                b.put(src, off, len).flip();
                return b;
            },
            (b, dst, off) -> {
                int n = b.remaining();
                b.get(b.position(), dst, off, n);
                return n;
            });

    private static final Kind<DirectBuffer> AGRONA = new Kind<>(DirectBufferProxy.PROXY_DB,
            n -> new UnsafeBuffer(ByteBuffer.allocateDirect(n)),
            (b, src, off, len) -> {
                MutableDirectBuffer m = (MutableDirectBuffer) b;
                m.putBytes(0, src, off, len);
                // A view of len bytes: LMDB takes the buffer's capacity as the size.
                return new UnsafeBuffer(m, 0, len);
            },
            (b, dst, off) -> {
                int n = b.capacity();
                b.getBytes(0, dst, off, n);
                return n;
            });

    private final Path dir;
    private final EnvFlags[] flags;
    private Env<T> env;
    private Dbi<T> dbi;
    private final Kind<T> kind;
    private final T kbuf;
    private final T vbuf;

    private LmdbJavaStore(Path dir, Engine.Settings s, Kind<T> kind) {
        this.kind = kind;
        this.dir = dir;
        flags = s.sync() ? new EnvFlags[0] : new EnvFlags[] {EnvFlags.MDB_NOSYNC};
        openEnv();
        kbuf = kind.alloc().apply(511);
        vbuf = kind.alloc().apply(Math.max(s.valueSize(), 1));
    }

    private void openEnv() {
        env = Env.create(kind.proxy()).setMapSize(MAP_SIZE).setMaxDbs(1).open(dir.toFile(), flags);
        dbi = env.openDbi("data", DbiFlags.MDB_CREATE);
    }

    static Store open(Path dir, Engine.Settings s) {
        return switch (s.buffer()) {
            case "bytebuffer" -> new LmdbJavaStore<>(dir, s, BYTE_BUFFER);
            case "agrona" -> new LmdbJavaStore<>(dir, s, AGRONA);
            default -> throw new IllegalArgumentException("lmdbjava buffer " + s.buffer() + ": use bytebuffer or agrona");
        };
    }

    static String nativeVersion() {
        Meta.Version v = Meta.version();
        return v.major + "." + v.minor + "." + v.patch;
    }

    @Override
    public Batch batch() {
        return new Batch() {
            private Txn<T> txn;

            @Override
            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) {
                if (txn == null) {
                    txn = env.txnWrite();
                }
                dbi.put(txn, kind.fill().fill(kbuf, k, koff, klen), kind.fill().fill(vbuf, v, voff, vlen));
            }

            @Override
            public void delete(byte[] k) {
                if (txn == null) {
                    txn = env.txnWrite();
                }
                dbi.delete(txn, kind.fill().fill(kbuf, k, 0, k.length));
            }

            @Override
            public void commit() {
                if (txn != null) {
                    txn.commit();
                    txn.close();
                    txn = null;
                }
            }

            @Override
            public void close() {
                if (txn != null) {
                    txn.close();
                    txn = null;
                }
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        try (Txn<T> txn = env.txnRead()) {
            T v = dbi.get(txn, kind.fill().fill(kbuf, key, 0, key.length));
            return v == null ? -1 : kind.copy().copy(v, dst, 0);
        }
    }

    @Override
    public Cursor cursor() {
        Txn<T> txn = env.txnRead();
        org.lmdbjava.Cursor<T> c = dbi.openCursor(txn);
        return new Cursor() {
            public boolean first() {
                return c.first();
            }

            public boolean last() {
                return c.last();
            }

            public boolean next() {
                return c.next();
            }

            public boolean prev() {
                return c.prev();
            }

            public boolean seek(byte[] key) {
                return c.get(kind.fill().fill(kbuf, key, 0, key.length), GetOp.MDB_SET_RANGE);
            }

            public int key(byte[] dst, int off) {
                return kind.copy().copy(c.key(), dst, off);
            }

            public int value(byte[] dst, int off) {
                return kind.copy().copy(c.val(), dst, off);
            }

            public void close() {
                c.close();
                txn.close();
            }
        };
    }

    /** A compacting copy (MDB_CP_COMPACT) swapped in for the data file, as the Go lmdb engine compacts. */
    @Override
    public void compact() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("compact"));
        env.copy(tmp.toFile(), CopyFlags.MDB_CP_COMPACT);
        close();
        Files.move(tmp.resolve("data.mdb"), dir.resolve("data.mdb"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(tmp);
        openEnv();
    }

    @Override
    public void close() {
        dbi.close();
        env.close();
    }
}
