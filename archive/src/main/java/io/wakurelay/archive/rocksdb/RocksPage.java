package io.wakurelay.archive.rocksdb;

import io.wakurelay.archive.ArchiveStorageException;
import io.wakurelay.archive.StoredMessage;
import io.wakurelay.archive.common.IndexedPage;
import io.wakurelay.archive.common.PageCut;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;

import java.util.function.LongConsumer;

/**
 * A {@link io.wakurelay.archive.StorePage} of the RocksDB archive: all its reads use one RocksDB snapshot, which the
 * page holds until it is closed; with data, each message is one point read of its stored bytes under that snapshot.
 */
final class RocksPage extends IndexedPage<RocksReader.Hit> {
    private final RocksReader reader;
    private final Snapshot snapshot;
    private final ReadOptions read;

    RocksPage(RocksReader reader, Snapshot snapshot, ReadOptions read, PageCut<RocksReader.Hit> cut, boolean includeData,
              long openNanos, LongConsumer busyNanos) {
        super(cut, includeData, openNanos, busyNanos);
        this.reader = reader;
        this.snapshot = snapshot;
        this.read = read;
    }

    @Override
    protected StoredMessage read(RocksReader.Hit hit, int index, boolean includeData) {
        try {
            return reader.read(read, hit, includeData);
        } catch (RocksDBException e) {
            throw new ArchiveStorageException("store query failed: " + RocksErrors.describe(e), e);
        }
    }

    /** Releases the snapshot. */
    @Override
    protected void release() {
        reader.release(this, snapshot, read);
    }
}
