package io.wakurelay.archive.rocksdb;

import io.wakurelay.protocol.WallClock;

import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * What tests may change in an archive: a fault in front of RocksDB's write, the wall clock retention measures
 * ages with, and the retention chunk size. Production uses {@link #DEFAULT}.
 */
record ArchiveHooks(UnaryOperator<BatchCommitter> commitDecorator, LongSupplier wallClockNanos, int retentionChunk) {
    static final ArchiveHooks DEFAULT = new ArchiveHooks(UnaryOperator.identity(), ArchiveHooks::systemWallClockNanos, RocksRetention.CHUNK);

    ArchiveHooks {
        if (retentionChunk < 1) {
            throw new IllegalArgumentException("retentionChunk must be positive, was " + retentionChunk);
        }
    }

    ArchiveHooks withCommit(UnaryOperator<BatchCommitter> decorator) {
        return new ArchiveHooks(decorator, wallClockNanos, retentionChunk);
    }

    ArchiveHooks withWallClock(LongSupplier clock) {
        return new ArchiveHooks(commitDecorator, clock, retentionChunk);
    }

    ArchiveHooks withRetentionChunk(int chunk) {
        return new ArchiveHooks(commitDecorator, wallClockNanos, chunk);
    }

    static long systemWallClockNanos() {
        return WallClock.nowNanos();
    }
}
