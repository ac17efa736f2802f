package org.tsbench.jvm.stores;

import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A Cursor over Java iterators, for the engines that iterate that way: a
 * forward one from first() or seek(), a descending one from last(). A scan
 * goes one way, so next() follows first() or seek(), and prev() last().
 */
final class IteratorCursor implements Store.Cursor {
    private final Supplier<Iterator<Map.Entry<byte[], byte[]>>> forward;
    private final Supplier<Iterator<Map.Entry<byte[], byte[]>>> backward;
    private final Function<byte[], Iterator<Map.Entry<byte[], byte[]>>> from;
    private final Runnable onClose;
    private Iterator<Map.Entry<byte[], byte[]>> it;
    private Map.Entry<byte[], byte[]> e;

    IteratorCursor(Supplier<Iterator<Map.Entry<byte[], byte[]>>> forward,
            Supplier<Iterator<Map.Entry<byte[], byte[]>>> backward,
            Function<byte[], Iterator<Map.Entry<byte[], byte[]>>> from, Runnable onClose) {
        this.forward = forward;
        this.backward = backward;
        this.from = from;
        this.onClose = onClose;
    }

    private boolean step() {
        e = it.hasNext() ? it.next() : null;
        return e != null;
    }

    public boolean first() {
        it = forward.get();
        return step();
    }

    public boolean last() {
        it = backward.get();
        return step();
    }

    public boolean seek(byte[] key) {
        it = from.apply(key);
        return step();
    }

    public boolean next() {
        return step();
    }

    public boolean prev() {
        return step();
    }

    public int key(byte[] dst, int off) {
        return Bytes.copy(e.getKey(), dst, off);
    }

    public int value(byte[] dst, int off) {
        return Bytes.copy(e.getValue(), dst, off);
    }

    public void close() {
        onClose.run();
    }
}
