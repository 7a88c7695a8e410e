package io.wakurelay.archive.rocksdb;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.wakurelay.archive.RocksConfig;
import io.wakurelay.archive.Durability;
import io.wakurelay.archive.EnvelopeSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code writeRateBytes} reaches RocksDB's rate limiter: a flush of about 6 MB of memtables, which takes tens of
 * milliseconds unlimited, takes seconds at 1 MiB/s. Only a lower bound is checked, so a slow machine cannot fail it.
 */
class WriteRateLimitTest {
    private static final int MESSAGES = 100;
    private static final int PAYLOAD = 64_000;

    @TempDir
    Path dir;

    @Test
    void aFlushWritesNoFasterThanTheLimit() {
        // memtables large enough to hold everything until the flush below, so that it is that flush which writes it
        RocksConfig limited = RocksFixture.config(dir).toBuilder().durability(Durability.WAL)
                .blockCacheBytes(64L << 20).writeBufferBytes(32L << 20).writeRateBytes(1L << 20).build();
        try (RocksArchive archive = RocksArchive.open(limited, new SimpleMeterRegistry())) {
            archive.write(new EnvelopeSource(PAYLOAD).flux().take(MESSAGES, true)).blockLast(Duration.ofSeconds(60));

            long start = System.nanoTime();
            archive.flush();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            // 6.4 MB at 1 MiB/s is about 6 s; the limiter may let one refill period's bytes through at once
            assertThat(took).as("a flush of %d x %d bytes at 1 MiB/s", MESSAGES, PAYLOAD).isGreaterThan(Duration.ofSeconds(4));
            assertThat(archive.messageCount()).isEqualTo(MESSAGES);
        }
    }
}
