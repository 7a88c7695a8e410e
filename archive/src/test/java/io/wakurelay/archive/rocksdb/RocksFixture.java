package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.ArchiveConfig;
import io.wakurelay.archive.RetentionPolicy;

import java.nio.file.Path;
import java.time.Duration;

/** Small-memory RocksDB archives in a temp dir. */
public final class RocksFixture {
    private RocksFixture() {
    }

    /** Retention none, 16 MiB cache, 4 MiB memtables: small, so that many tests fit in a few seconds. */
    public static ArchiveConfig config(Path dir) {
        return ArchiveConfig.defaults(dir)
                .toBuilder().retention(new RetentionPolicy.None())
                .blockCacheBytes(16L << 20).writeBufferBytes(4L << 20)
                .maxBatchMessages(64).maxBatchDelay(Duration.ofMillis(2)).maxPendingMessages(256).build();
    }

    public static RocksArchive open(Path dir) {
        return RocksArchive.open(config(dir), new SimpleMeterRegistry());
    }
}
