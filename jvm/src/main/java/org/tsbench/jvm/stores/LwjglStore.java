package org.tsbench.jvm.stores;

import static org.lwjgl.util.lmdb.LMDB.*;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.lwjgl.PointerBuffer;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.util.lmdb.MDBVal;

/** LWJGL's LMDB binding (the report's "JGL"): LMDB's C API one to one, over the LMDB of its natives jar. */
final class LwjglStore implements Store {
    private final Path dir;
    private final int flags;
    private long env;
    private int dbi;
    private final ByteBuffer kbuf = MemoryUtil.memAlloc(511);
    private final ByteBuffer vbuf;
    private final MDBVal key = MDBVal.calloc();
    private final MDBVal val = MDBVal.calloc();
    private final PointerBuffer pp = MemoryUtil.memAllocPointer(1);

    private LwjglStore(Path dir, Engine.Settings s) {
        vbuf = MemoryUtil.memAlloc(Math.max(s.valueSize(), 1));
        this.dir = dir;
        flags = s.sync() ? 0 : MDB_NOSYNC;
        openEnv();
    }

    private void openEnv() {
        check(mdb_env_create(pp));
        env = pp.get(0);
        check(mdb_env_set_mapsize(env, LmdbJavaStore.MAP_SIZE));
        check(mdb_env_open(env, dir.toString(), flags, 0644));
        check(mdb_txn_begin(env, 0, 0, pp));
        long txn = pp.get(0);
        IntBuffer ip = MemoryUtil.memAllocInt(1);
        try {
            check(mdb_dbi_open(txn, (ByteBuffer) null, 0, ip));
            dbi = ip.get(0);
        } finally {
            MemoryUtil.memFree(ip);
        }
        check(mdb_txn_commit(txn));
    }

    static Store open(Path dir, Engine.Settings s) {
        return new LwjglStore(dir, s);
    }

    static String nativeVersion() {
        int[] maj = new int[1], min = new int[1], pat = new int[1];
        mdb_version(maj, min, pat);
        return maj[0] + "." + min[0] + "." + pat[0];
    }

    private static void check(int rc) {
        if (rc != MDB_SUCCESS) {
            throw new IllegalStateException("LMDB: " + mdb_strerror(rc));
        }
    }

    private static MDBVal set(MDBVal v, ByteBuffer buf, byte[] src, int off, int len) {
        buf.clear();
        buf.put(src, off, len).flip();
        return v.mv_data(buf);
    }

    private static int copy(MDBVal v, byte[] dst, int off) {
        ByteBuffer b = v.mv_data();
        int n = b.remaining();
        b.get(0, dst, off, n);
        return n;
    }

    private long begin(int flags) {
        check(mdb_txn_begin(env, 0, flags, pp));
        return pp.get(0);
    }

    @Override
    public Batch batch() {
        return new Batch() {
            private long txn;

            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) {
                if (txn == 0) {
                    txn = begin(0);
                }
                check(mdb_put(txn, dbi, set(key, kbuf, k, koff, klen), set(val, vbuf, v, voff, vlen), 0));
            }

            public void delete(byte[] k) {
                if (txn == 0) {
                    txn = begin(0);
                }
                int rc = mdb_del(txn, dbi, set(key, kbuf, k, 0, k.length), null);
                if (rc != MDB_NOTFOUND) {
                    check(rc);
                }
            }

            public void commit() {
                if (txn != 0) {
                    long t = txn;
                    txn = 0;
                    check(mdb_txn_commit(t));
                }
            }

            public void close() {
                if (txn != 0) {
                    mdb_txn_abort(txn);
                    txn = 0;
                }
            }
        };
    }

    @Override
    public int get(byte[] k, byte[] dst) {
        long txn = begin(MDB_RDONLY);
        try {
            int rc = mdb_get(txn, dbi, set(key, kbuf, k, 0, k.length), val);
            if (rc == MDB_NOTFOUND) {
                return -1;
            }
            check(rc);
            return copy(val, dst, 0);
        } finally {
            mdb_txn_abort(txn);
        }
    }

    @Override
    public Cursor cursor() {
        long txn = begin(MDB_RDONLY);
        PointerBuffer cp = MemoryUtil.memAllocPointer(1);
        check(mdb_cursor_open(txn, dbi, cp));
        long c = cp.get(0);
        MemoryUtil.memFree(cp);
        MDBVal ck = MDBVal.calloc();
        MDBVal cv = MDBVal.calloc();
        ByteBuffer sk = MemoryUtil.memAlloc(511);
        return new Cursor() {
            private boolean at(int op) {
                int rc = mdb_cursor_get(c, ck, cv, op);
                if (rc == MDB_NOTFOUND) {
                    return false;
                }
                check(rc);
                return true;
            }

            public boolean first() {
                return at(MDB_FIRST);
            }

            public boolean last() {
                return at(MDB_LAST);
            }

            public boolean next() {
                return at(MDB_NEXT);
            }

            public boolean prev() {
                return at(MDB_PREV);
            }

            public boolean seek(byte[] k) {
                set(ck, sk, k, 0, k.length);
                return at(MDB_SET_RANGE);
            }

            public int key(byte[] dst, int off) {
                return copy(ck, dst, off);
            }

            public int value(byte[] dst, int off) {
                return copy(cv, dst, off);
            }

            public void close() {
                mdb_cursor_close(c);
                mdb_txn_abort(txn);
                ck.free();
                cv.free();
                MemoryUtil.memFree(sk);
            }
        };
    }

    /** A compacting copy swapped in for the data file. */
    @Override
    public void compact() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("compact"));
        check(mdb_env_copy2(env, tmp.toString(), MDB_CP_COMPACT));
        mdb_env_close(env);
        Files.move(tmp.resolve("data.mdb"), dir.resolve("data.mdb"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(tmp);
        openEnv();
    }

    @Override
    public void close() {
        mdb_env_close(env);
        MemoryUtil.memFree(kbuf);
        MemoryUtil.memFree(vbuf);
        MemoryUtil.memFree(pp);
        key.free();
        val.free();
    }
}
