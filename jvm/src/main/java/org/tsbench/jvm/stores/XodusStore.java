package org.tsbench.jvm.stores;

import java.nio.file.Path;
import jetbrains.exodus.ArrayByteIterable;
import jetbrains.exodus.ByteIterable;
import jetbrains.exodus.env.Environment;
import jetbrains.exodus.env.EnvironmentConfig;
import jetbrains.exodus.env.Environments;
import jetbrains.exodus.env.StoreConfig;
import jetbrains.exodus.env.Transaction;

/** JetBrains Xodus: a log-structured B+tree store, one store without duplicates. */
final class XodusStore implements Store {
    private final Environment env;
    private final jetbrains.exodus.env.Store store;

    private XodusStore(Path dir, Engine.Settings s) {
        env = Environments.newInstance(dir.toFile(), new EnvironmentConfig().setLogDurableWrite(s.sync()));
        store = env.computeInTransaction(t -> env.openStore("data", StoreConfig.WITHOUT_DUPLICATES, t));
    }

    static Store open(Path dir, Engine.Settings s) {
        return new XodusStore(dir, s);
    }

    private static int copy(ByteIterable b, byte[] dst, int off) {
        if (b == null) {
            return -1;
        }
        int n = b.getLength();
        System.arraycopy(b.getBytesUnsafe(), 0, dst, off, n);
        return n;
    }

    @Override
    public Batch batch() {
        return new Batch() {
            private Transaction txn;

            public void put(byte[] k, int koff, int klen, byte[] v, int voff, int vlen) {
                if (txn == null) {
                    txn = env.beginTransaction();
                }
                store.put(txn, new ArrayByteIterable(Bytes.slice(k, koff, klen)), new ArrayByteIterable(Bytes.slice(v, voff, vlen)));
            }

            public void delete(byte[] k) {
                if (txn == null) {
                    txn = env.beginTransaction();
                }
                store.delete(txn, new ArrayByteIterable(k));
            }

            public void commit() {
                if (txn != null) {
                    Transaction t = txn;
                    txn = null;
                    if (!t.commit()) {
                        throw new IllegalStateException("Xodus: a transaction did not commit");
                    }
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
        Transaction t = env.beginReadonlyTransaction();
        try {
            return copy(store.get(t, new ArrayByteIterable(key)), dst, 0);
        } finally {
            t.abort();
        }
    }

    @Override
    public Cursor cursor() {
        Transaction t = env.beginReadonlyTransaction();
        return new Cursor() {
            private jetbrains.exodus.env.Cursor c = store.openCursor(t);
            private boolean moved;

            /** Xodus has no getFirst(): getNext() of a cursor not yet moved is the first key, so a moved one starts afresh. */
            public boolean first() {
                if (moved) {
                    c.close();
                    c = store.openCursor(t);
                }
                moved = true;
                return c.getNext();
            }

            public boolean last() {
                moved = true;
                return c.getLast();
            }

            public boolean next() {
                moved = true;
                return c.getNext();
            }

            public boolean prev() {
                moved = true;
                return c.getPrev();
            }

            public boolean seek(byte[] key) {
                moved = true;
                return c.getSearchKeyRange(new ArrayByteIterable(key)) != null;
            }

            public int key(byte[] dst, int off) {
                return copy(c.getKey(), dst, off);
            }

            public int value(byte[] dst, int off) {
                return copy(c.getValue(), dst, off);
            }

            public void close() {
                c.close();
                t.abort();
            }
        };
    }

    /** Asks Xodus's log cleaner to run; it works in the background, and the step does not wait for it. */
    @Override
    public void compact() {
        env.gc();
    }

    @Override
    public void close() {
        env.close();
    }
}
