package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.StorePage;
import io.wakurelay.archive.StoreResponse;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.protocol.MessageHash;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.LongConsumer;

/**
 * A {@link StorePage} of the RocksDB archive: all its reads use one RocksDB snapshot, which the page holds until it is
 * closed; with data, each message is one point read of its stored bytes under that snapshot.
 */
final class RocksStorePage implements StorePage {
    private final StoreReader reader;
    private final Snapshot snapshot;
    private final ReadOptions read;
    private final List<StoreReader.Hit> hits;
    private final boolean includeData;
    private final MessageHash cursor;
    private final long dataBytes;
    private final LongConsumer busyNanos;
    private long busy;
    private int next;
    private boolean closed;

    RocksStorePage(StoreReader reader, Snapshot snapshot, ReadOptions read, List<StoreReader.Hit> hits, boolean includeData,
              MessageHash cursor, long dataBytes, long openNanos, LongConsumer busyNanos) {
        this.reader = reader;
        this.snapshot = snapshot;
        this.read = read;
        this.hits = hits;
        this.includeData = includeData;
        this.cursor = cursor;
        this.dataBytes = dataBytes;
        this.busy = openNanos;
        this.busyNanos = busyNanos;
    }

    /** The hash to pass as the next query's cursor; null when there are no more results. */
    @Override
    public MessageHash paginationCursor() {
        return cursor;
    }

    /** Messages in the page. */
    @Override
    public int size() {
        return hits.size();
    }

    /** Stored bytes (WakuMessage encodings) of the page's messages when it includes data; 0 otherwise. */
    @Override
    public long dataBytes() {
        return dataBytes;
    }

    @Override
    public synchronized boolean hasNext() {
        return next < hits.size();
    }

    /**
     * The next message, read now (with data: one point read of its stored bytes).
     *
     * @throws ArchiveClosedException  when the page or the archive was closed
     * @throws ArchiveStorageException when RocksDB fails to read
     */
    @Override
    public synchronized StoredMessage next() {
        if (!hasNext()) {
            throw new NoSuchElementException("the page has " + hits.size() + " messages");
        }
        if (closed) {
            throw new ArchiveClosedException("the store page was closed (the archive closes its open pages when it closes)");
        }
        long start = System.nanoTime();
        try {
            return reader.read(read, hits.get(next++), includeData);
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("store query failed: " + Errors.describe(e), e);
        } finally {
            busy += System.nanoTime() - start;
        }
    }

    /** Releases the snapshot; reports the time the archive spent on the query. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        reader.release(this, snapshot, read);
        busyNanos.accept(busy);
    }
}
