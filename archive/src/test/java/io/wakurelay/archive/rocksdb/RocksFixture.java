package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.RetentionPolicy;

import java.nio.file.Path;
import java.time.Duration;

/** Small-memory RocksDB archives in a temp dir. */
public final class RocksFixture {
    private RocksFixture() {
    }

    /**
     * Retention none, 16 MiB cache, 4 MiB memtables: small, so that many tests fit in a few seconds; no timestamp window,
     * since test messages have fixed timestamps of 2023 ({@code TestEnvelopes.BASE_TIME}).
     */
    public static RocksConfig config(Path dir) {
        return RocksConfig.defaults(dir).toBuilder().blockCacheBytes(16L << 20).writeBufferBytes(4L << 20).build()
                .withCore(c -> c.retention(new RetentionPolicy.None()).timestampWindow(Duration.ZERO)
                        .maxBatchMessages(64).maxBatchDelay(Duration.ofMillis(2)).maxPendingMessages(256));
    }

    public static RocksArchive open(Path dir) {
        return RocksArchive.open(config(dir), new SimpleMeterRegistry());
    }
}
