package io.wakurelay.archive.rocksdb;

import org.rocksdb.ColumnFamilyHandle;

/**
 * The column families of stored messages and their indexes, as the writer ({@link BatchAssembler}), the reader
 * ({@link RocksReader}) and {@link RocksRetention} all use them (ADR 0010, 0013).
 */
record MessageFamilies(ColumnFamilyHandle messages, ColumnFamilyHandle messageInfo, ColumnFamilyHandle byTime,
                       ColumnFamilyHandle byPubsub, ColumnFamilyHandle byContent) {
    static MessageFamilies of(ArchiveDatabase database) {
        return new MessageFamilies(database.handle(ArchiveDatabase.Family.MESSAGES),
                database.handle(ArchiveDatabase.Family.MESSAGE_INFO), database.handle(ArchiveDatabase.Family.BY_TIME),
                database.handle(ArchiveDatabase.Family.BY_PUBSUB), database.handle(ArchiveDatabase.Family.BY_CONTENT));
    }
}
