package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveClosedException;
import io.wakurelay.archive.Durability;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The RocksDB snapshots queries read at. With a WAL every query gets a snapshot of its own, taken when it opens: what
 * a query can see is already acknowledged. Without one ({@link Durability#FLUSH}) a written batch is in memtables
 * only until a flush, so queries share the snapshot taken when the last completed flush began: a query then never
 * returns a message a {@code kill -9} could still take away, and "found by the Store" keeps meaning "acknowledged".
 * The shared snapshot is released once a newer one replaced it and its last page closed.
 *
 * <p>Thread-safe; every method is short (no RocksDB read runs under the lock).
 */
final class ReadSnapshots implements AutoCloseable {
    private final RocksDB db;
    private final boolean durableOnly;
    /** durableOnly: the snapshot new queries read at. */
    private Snapshot current;
    /** durableOnly: every shared snapshot still held (the current one, and older ones pages read at), by open pages. */
    private final Map<Snapshot, Integer> readers = new IdentityHashMap<>();
    private boolean closed;

    /** @param durableOnly queries read what the last flush made durable (the database's state at open, at first) */
    ReadSnapshots(RocksDB db, boolean durableOnly) {
        this.db = db;
        this.durableOnly = durableOnly;
        if (durableOnly) {
            current = db.getSnapshot();
            readers.put(current, 0);
        }
    }

    /** A snapshot for one query; give it back with {@link #release}. */
    synchronized Snapshot acquire() {
        if (closed) {
            throw new ArchiveClosedException("the archive is closed");
        }
        if (!durableOnly) {
            return db.getSnapshot();
        }
        readers.merge(current, 1, Integer::sum);
        return current;
    }

    synchronized void release(Snapshot snapshot) {
        if (closed) {
            return;
        }
        if (!durableOnly) {
            db.releaseSnapshot(snapshot);
            return;
        }
        int left = readers.merge(snapshot, -1, Integer::sum);
        if (left == 0 && snapshot != current) {
            readers.remove(snapshot);
            db.releaseSnapshot(snapshot);
        }
    }

    /** {@code durable} (taken before a flush that has now completed) becomes what new queries read. */
    synchronized void publish(Snapshot durable) {
        if (closed) {
            db.releaseSnapshot(durable);
            return;
        }
        Snapshot replaced = current;
        current = durable;
        readers.put(durable, 0);
        if (readers.get(replaced) == 0) {
            readers.remove(replaced);
            db.releaseSnapshot(replaced);
        }
    }

    /** Releases every snapshot (the pages reading them are closed by now); before the database closes. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        readers.keySet().forEach(db::releaseSnapshot);
        readers.clear();
    }
}
