package io.wakurelay.archive;

import io.wakurelay.protocol.MessageHash;

import java.util.Iterator;

/**
 * One page of a Store v3 query whose messages are read one at a time, as they are iterated, instead of all at once:
 * what the page holds in memory is its index entries (tens of bytes each) and the messages being read. Which messages
 * the page has, and its {@link #paginationCursor()}, are decided when it opens (so a response can be framed before
 * its first message is read); with data, the page ends early, with a cursor, once the next message would take its
 * stored bytes past the byte budget (Store v3 lets a page hold fewer than {@code pageSize} messages). Messages come in
 * chronological order, also for backward queries, as in {@link StoreResponse}.
 *
 * <p>All reads of a page see one consistent state of the store (RocksDB: a snapshot; PostgreSQL: one repeatable-read
 * transaction), which the page holds until it is closed: close it when done (the archive closes open pages when it
 * closes; iterating one after that fails with {@link ArchiveClosedException}). Thread-safe, but meant for one reader
 * at a time.
 */
public interface StorePage extends Iterator<StoredMessage>, AutoCloseable {

    /** The hash to pass as the next query's cursor; null when there are no more results. */
    MessageHash paginationCursor();

    /** Messages in the page. */
    int size();

    /** Stored bytes (WakuMessage encodings) of the page's messages when it includes data; 0 otherwise. */
    long dataBytes();

    /**
     * The next message, read now.
     *
     * @throws ArchiveClosedException  when the page or the archive was closed
     * @throws ArchiveStorageException when the store fails to read
     */
    @Override
    StoredMessage next();

    /** Gives back what the page holds (its snapshot, its connection); reports the time the archive spent on it. Idempotent. */
    @Override
    void close();
}
