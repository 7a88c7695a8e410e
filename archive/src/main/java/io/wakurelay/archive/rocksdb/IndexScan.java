package io.wakurelay.archive.rocksdb;

import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

import java.util.Arrays;

/**
 * A range scan of one index prefix (a pubsub topic, a content topic, or the whole time index) in either
 * direction, positioned after the cursor. The range is also given to RocksDB as iterate bounds, so that the
 * iterator never walks over deleted entries beyond it.
 */
final class IndexScan implements AutoCloseable {
    private final Slice lowerBound;
    private final Slice upperBound;
    private final ReadOptions readOptions;
    private final RocksIterator iterator;
    private final boolean ascending;
    private byte[] key;
    private byte[] tail;

    IndexScan(RocksDB db, ColumnFamilyHandle family, Snapshot snapshot, byte[] prefix, TailRange range, boolean ascending) {
        this.ascending = ascending;
        byte[] lowerKey = Keys.concat(prefix, range.lower());
        byte[] upperKey = Keys.concat(prefix, range.upper());
        this.lowerBound = new Slice(lowerKey);
        this.upperBound = new Slice(Keys.successor(upperKey));
        this.readOptions = new ReadOptions().setSnapshot(snapshot)
                .setIterateLowerBound(lowerBound).setIterateUpperBound(upperBound);
        this.iterator = db.newIterator(family, readOptions);
        byte[] cursor = range.cursor();
        if (ascending) {
            if (cursor != null && Keys.compare(cursor, range.lower()) >= 0) {
                byte[] cursorKey = Keys.concat(prefix, cursor);
                iterator.seek(cursorKey);
                skipIf(cursor);
            } else {
                iterator.seek(lowerKey);
            }
        } else {
            if (cursor != null && Keys.compare(cursor, range.upper()) <= 0) {
                iterator.seekForPrev(Keys.concat(prefix, cursor));
                skipIf(cursor);
            } else {
                iterator.seekForPrev(upperKey);
            }
        }
        load();
    }

    private void skipIf(byte[] cursorTail) {
        if (iterator.isValid() && Arrays.equals(Keys.tailOf(iterator.key()), cursorTail)) {
            step();
        }
    }

    private void step() {
        if (ascending) {
            iterator.next();
        } else {
            iterator.prev();
        }
    }

    private void load() {
        if (iterator.isValid()) {
            key = iterator.key();
            tail = Keys.tailOf(key);
        } else {
            key = null;
            tail = null;
        }
    }

    boolean isValid() {
        return key != null;
    }

    /** The current entry's (timestamp, hash) tail. */
    byte[] tail() {
        return tail;
    }

    byte[] value() {
        return iterator.value();
    }

    void next() {
        step();
        load();
    }

    /** @throws RocksDBException when the scan ended because of a read error rather than the end of the range */
    void checkStatus() throws RocksDBException {
        iterator.status();
    }

    @Override
    public void close() {
        iterator.close();
        readOptions.close();
        upperBound.close();
        lowerBound.close();
    }
}
