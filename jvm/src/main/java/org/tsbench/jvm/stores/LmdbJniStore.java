package org.tsbench.jvm.stores;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.fusesource.lmdbjni.Constants;
import org.fusesource.lmdbjni.Database;
import org.fusesource.lmdbjni.Entry;
import org.fusesource.lmdbjni.Env;
import org.fusesource.lmdbjni.GetOp;
import org.fusesource.lmdbjni.SeekOp;
import org.fusesource.lmdbjni.Transaction;

/** LMDBJNI (deephacks) over the LMDB its linux64 jar bundles, through its byte[] API. */
final class LmdbJniStore implements Store {
    private final Path dir;
    private final int flags;
    private Env env;
    private Database db;

    private LmdbJniStore(Path dir, Engine.Settings s) {
        this.dir = dir;
        flags = s.sync() ? 0 : Constants.NOSYNC;
        openEnv();
    }

    private void openEnv() {
        env = new Env();
        env.setMapSize(LmdbJavaStore.MAP_SIZE);
        env.open(dir.toString(), flags);
        db = env.openDatabase();
    }

    static Store open(Path dir, Engine.Settings s) {
        return new LmdbJniStore(dir, s);
    }

    static String nativeVersion() {
        return Env.version();
    }

    @Override
    public Batch batch() {
        return new Batch() {
            private Transaction txn;

            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) {
                if (txn == null) {
                    txn = env.createWriteTransaction();
                }
                db.put(txn, Bytes.slice(k, koff, klen), Bytes.slice(v, voff, vlen));
            }

            public void delete(byte[] k) {
                if (txn == null) {
                    txn = env.createWriteTransaction();
                }
                db.delete(txn, k);
            }

            public void commit() {
                if (txn != null) {
                    txn.commit();
                    txn = null;
                }
            }

            public void close() {
                if (txn != null) {
                    txn.abort();
                    txn = null;
                }
            }
        };
    }

    @Override
    public int get(byte[] key, byte[] dst) {
        try (Transaction txn = env.createReadTransaction()) {
            return Bytes.copy(db.get(txn, key), dst, 0);
        }
    }

    @Override
    public Cursor cursor() {
        Transaction txn = env.createReadTransaction();
        org.fusesource.lmdbjni.Cursor c = db.openCursor(txn);
        return new Cursor() {
            private Entry e;

            private boolean at(GetOp op) {
                e = c.get(op);
                return e != null;
            }

            public boolean first() {
                return at(GetOp.FIRST);
            }

            public boolean last() {
                return at(GetOp.LAST);
            }

            public boolean next() {
                return at(GetOp.NEXT);
            }

            public boolean prev() {
                return at(GetOp.PREV);
            }

            public boolean seek(byte[] key) {
                e = c.seek(SeekOp.RANGE, key);
                return e != null;
            }

            public int key(byte[] dst, int off) {
                return Bytes.copy(e.getKey(), dst, off);
            }

            public int value(byte[] dst, int off) {
                return Bytes.copy(e.getValue(), dst, off);
            }

            public void close() {
                c.close();
                txn.close();
            }
        };
    }

    /** A compacting copy swapped in for the data file. */
    @Override
    public void compact() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("compact"));
        env.copyCompact(tmp.toString());
        close();
        Files.move(tmp.resolve("data.mdb"), dir.resolve("data.mdb"), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(tmp);
        openEnv();
    }

    @Override
    public void close() {
        db.close();
        env.close();
    }
}
