package io.wakurelay.archive.rocksdb;

import org.rocksdb.RocksIterator;

/** Reads the column families directly, to check that indexes and data agree. */
final class ArchiveInspector {
    private ArchiveInspector() {
    }

    static long keys(RocksArchive archive, ArchiveDatabase.Family family) {
        ArchiveDatabase database = archive.database();
        try (RocksIterator it = database.db().newIterator(database.handle(family))) {
            long n = 0;
            for (it.seekToFirst(); it.isValid(); it.next()) {
                n++;
            }
            return n;
        }
    }

    /** Every family that holds one entry per stored message holds exactly {@code expected}. */
    static void assertConsistent(RocksArchive archive, long expected) {
        for (ArchiveDatabase.Family family : new ArchiveDatabase.Family[]{ArchiveDatabase.Family.MESSAGES,
                ArchiveDatabase.Family.MESSAGE_INFO, ArchiveDatabase.Family.BY_TIME, ArchiveDatabase.Family.BY_PUBSUB,
                ArchiveDatabase.Family.BY_CONTENT}) {
            long n = keys(archive, family);
            if (n != expected) {
                throw new AssertionError(family.cfName + " holds " + n + " entries, expected " + expected);
            }
        }
        if (archive.messageCount() != expected) {
            throw new AssertionError("messageCount() is " + archive.messageCount() + ", expected " + expected);
        }
    }
}
