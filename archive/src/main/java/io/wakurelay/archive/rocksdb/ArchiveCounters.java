package io.wakurelay.archive.rocksdb;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stored message count and bytes: exact, and persistent without a scan. Every batch that stores or deletes
 * messages also merges its deltas into the counters family (RocksDB's UInt64AddOperator), in the same atomic
 * WriteBatch, so the persisted totals always match the data, also after a crash. The in-memory copy is what
 * gauges read; it is advanced only after a commit succeeded.
 */
final class ArchiveCounters {
    private static final byte[] MESSAGES = "messages".getBytes(StandardCharsets.UTF_8);
    private static final byte[] BYTES = "bytes".getBytes(StandardCharsets.UTF_8);

    private final ColumnFamilyHandle family;
    private final AtomicLong messages;
    private final AtomicLong bytes;

    private ArchiveCounters(ColumnFamilyHandle family, long messages, long bytes) {
        this.family = family;
        this.messages = new AtomicLong(messages);
        this.bytes = new AtomicLong(bytes);
    }

    static ArchiveCounters load(ArchiveDatabase database) throws RocksDBException {
        ColumnFamilyHandle family = database.handle(ArchiveDatabase.Family.COUNTERS);
        return new ArchiveCounters(family,
                Keys.readUint64(database.db().get(family, MESSAGES)),
                Keys.readUint64(database.db().get(family, BYTES)));
    }

    /** Adds the deltas to {@code batch}; call {@link #applied} once it is committed. */
    void stage(WriteBatch batch, long messageDelta, long byteDelta) throws RocksDBException {
        batch.merge(family, MESSAGES, Keys.uint64(messageDelta));
        batch.merge(family, BYTES, Keys.uint64(byteDelta));
    }

    void applied(long messageDelta, long byteDelta) {
        messages.addAndGet(messageDelta);
        bytes.addAndGet(byteDelta);
    }

    long messages() {
        return messages.get();
    }

    long bytes() {
        return bytes.get();
    }
}
