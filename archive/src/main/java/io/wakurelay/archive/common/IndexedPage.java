package io.wakurelay.archive.common;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.MessageHash;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.LongConsumer;

/**
 * A {@link StorePage} whose index entries ({@code hits}, cut by a {@link PageCut}) are found when it opens and whose
 * messages are read one at a time as it is iterated, each read timed: what every backend's page does the same. A
 * backend says how one message is read ({@link #read}) and what the page gives back when it closes ({@link #release}).
 * A message whose read fails is passed over: the next {@link #next()} reads the one after it.
 *
 * @param <H> the backend's index entry
 */
public abstract class IndexedPage<H> implements StorePage {
    private final List<H> hits;
    private final boolean includeData;
    private final MessageHash cursor;
    private final long dataBytes;
    private final LongConsumer busyNanos;
    private long busy;
    private int next;
    private boolean closed;

    /**
     * @param openNanos the time opening took, counted in the time the archive spent on the query
     * @param busyNanos told that time, and the time of every read, when the page closes
     */
    protected IndexedPage(PageCut<H> cut, boolean includeData, long openNanos, LongConsumer busyNanos) {
        this.hits = cut.hits();
        this.includeData = includeData;
        this.cursor = cut.cursor();
        this.dataBytes = cut.dataBytes();
        this.busy = openNanos;
        this.busyNanos = busyNanos;
    }

    @Override
    public final MessageHash paginationCursor() {
        return cursor;
    }

    @Override
    public final int size() {
        return hits.size();
    }

    @Override
    public final long dataBytes() {
        return dataBytes;
    }

    @Override
    public final synchronized boolean hasNext() {
        return next < hits.size();
    }

    @Override
    public final synchronized StoredMessage next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the page has " + hits.size() + " messages");
        }
        if (closed) {
            throw new ArchiveClosedException("the store page was closed (the archive closes its open pages when it closes)");
        }
        long start = System.nanoTime();
        try {
            int index = next++;
            return read(hits.get(index), index, includeData);
        } finally {
            busy += System.nanoTime() - start;
        }
    }

    /**
     * Reads the message of {@code hit}, the page's {@code index}th, with its data when {@code includeData}; called
     * under the page's lock, in order.
     *
     * @throws io.wakurelay.archive.ArchiveStorageException when the store fails to read
     */
    protected abstract StoredMessage read(H hit, int index, boolean includeData);

    /** The page's hits, for a backend that reads several messages at once. */
    protected final List<H> hits() {
        return hits;
    }

    /** Gives back what the page holds (a snapshot, a connection); called once, when the page closes, under its lock. */
    protected abstract void release();

    /** Gives back what the page holds and reports the time the archive spent on it. Idempotent. */
    @Override
    public final synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        release();
        busyNanos.accept(busy);
    }
}
