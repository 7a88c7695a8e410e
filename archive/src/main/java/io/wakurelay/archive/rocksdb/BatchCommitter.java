package io.wakurelay.archive.rocksdb;

import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The one call that makes a WriteBatch durable. A seam so that tests can put a fault in front of the real
 * RocksDB write (a disk that fills up and empties again); production uses {@link ArchiveDatabase#write}.
 */
@FunctionalInterface
interface BatchCommitter {
    void commit(WriteBatch batch) throws RocksDBException;
}
