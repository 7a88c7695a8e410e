package io.wakurelay.rln.chain;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The last {@code capacity} membership roots, oldest first, each as the 32-byte little-endian field element a proof
 * carries. One thread adds ({@link #add}); any thread asks ({@link #contains}), without a lock and without allocating:
 * the roots are an immutable array of four 64-bit words each, replaced whole on a change and published through a
 * volatile field. A root that is already held is moved to the newest place rather than held twice, so the window
 * holds {@code capacity} distinct roots at most.
 */
final class RootWindow {
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final int WORDS = 4;

    private final int capacity;
    private volatile long[] words = new long[0];

    RootWindow(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a root window holds at least one root, was " + capacity);
        }
        this.capacity = capacity;
    }

    /** Whether the 32 bytes at {@code offset} of {@code array} are a root of the window. */
    boolean contains(byte[] array, int offset) {
        Objects.checkFromIndexSize(offset, Abi.WORD, array.length);
        return find(words, (long) LONG_LE.get(array, offset), (long) LONG_LE.get(array, offset + 8),
                (long) LONG_LE.get(array, offset + 16), (long) LONG_LE.get(array, offset + 24));
    }

    /** Whether the 32 bytes at {@code index} of {@code buf} are a root of the window; the buffer's indices are kept. */
    boolean contains(ByteBuf buf, int index) {
        return find(words, buf.getLongLE(index), buf.getLongLE(index + 8), buf.getLongLE(index + 16),
                buf.getLongLE(index + 24));
    }

    private static boolean find(long[] w, long w0, long w1, long w2, long w3) {
        for (int i = 0; i < w.length; i += WORDS) {
            if (w[i] == w0 && w[i + 1] == w1 && w[i + 2] == w2 && w[i + 3] == w3) {
                return true;
            }
        }
        return false;
    }

    /**
     * Makes {@code root} the newest root; the oldest goes when the window is full. False when it already was the
     * newest (nothing changed). Only the reading thread calls this.
     */
    boolean add(byte[] root) {
        if (root.length != Abi.WORD) {
            throw new IllegalArgumentException("a root is 32 bytes, was " + root.length);
        }
        long[] old = words;
        long w0 = (long) LONG_LE.get(root, 0);
        long w1 = (long) LONG_LE.get(root, 8);
        long w2 = (long) LONG_LE.get(root, 16);
        long w3 = (long) LONG_LE.get(root, 24);
        int n = old.length;
        if (n > 0 && old[n - 4] == w0 && old[n - 3] == w1 && old[n - 2] == w2 && old[n - 1] == w3) {
            return false;
        }
        long[] kept = new long[n];
        int k = 0;
        for (int i = 0; i < n; i += WORDS) {
            if (old[i] != w0 || old[i + 1] != w1 || old[i + 2] != w2 || old[i + 3] != w3) {
                System.arraycopy(old, i, kept, k, WORDS);
                k += WORDS;
            }
        }
        int drop = Math.max(0, k / WORDS + 1 - capacity) * WORDS;
        long[] next = new long[k - drop + WORDS];
        System.arraycopy(kept, drop, next, 0, k - drop);
        next[next.length - 4] = w0;
        next[next.length - 3] = w1;
        next[next.length - 2] = w2;
        next[next.length - 1] = w3;
        words = next;
        return true;
    }

    /** How many roots the window holds. */
    int size() {
        return words.length / WORDS;
    }

    int capacity() {
        return capacity;
    }

    /** Copies of the roots, oldest first. */
    List<byte[]> roots() {
        long[] w = words;
        List<byte[]> roots = new ArrayList<>(w.length / WORDS);
        for (int i = 0; i < w.length; i += WORDS) {
            byte[] root = new byte[Abi.WORD];
            for (int j = 0; j < WORDS; j++) {
                LONG_LE.set(root, j * 8, w[i + j]);
            }
            roots.add(root);
        }
        return roots;
    }
}
